/**
 * Test photographs made on the spot with sharp: a camera JPEG lying on its side with EXIF orientation 6, camera and
 * GPS tags; PNG, WebP, GIF; a damaged JPEG; a PNG whose header claims more pixels than any photograph (a bomb).
 */
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** A JPEG stored 600×400 (landscape) with orientation 6: upright it is 400×600 (portrait). Tagged Acme / GPS. */
export async function sidewaysCameraJpeg(): Promise<Buffer> {
  // Left half red, right half blue, so the turn can be seen in the pixels too.
  const halves = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#d00000' } })
    .composite([
      {
        input: await sharp({ create: { width: 300, height: 400, channels: 3, background: '#0000d0' } })
          .png()
          .toBuffer(),
        left: 300,
        top: 0,
      },
    ])
    .png()
    .toBuffer();
  return sharp(halves)
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'AcmeCam', Model: 'Studio Secret 9' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 1234/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .toBuffer();
}

export const solid = (format: 'png' | 'webp' | 'gif' | 'jpeg', width = 64, height = 48, colour = '#88aa44') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();

/** Random pixels compress badly: a PNG of about `width × height × 3` bytes. */
export const noisyPng = (width: number, height: number) => {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
};

/** A JPEG cut short: the header reads, the pixels do not. */
export async function truncatedJpeg(): Promise<Buffer> {
  const whole = await sidewaysCameraJpeg();
  return whole.subarray(0, Math.floor(whole.length / 3));
}

/**
 * A tiny PNG whose header claims `width` × `height` pixels (by default 40,000 × 40,000: 1.6 gigapixels), with a valid
 * header checksum.
 */
export async function pixelBombPng(width = 40_000, height = 40_000): Promise<Buffer> {
  const png = Buffer.from(await solid('png', 8, 8));
  // IHDR data starts at byte 16: width, height (big-endian); its CRC covers type + data (bytes 12..29).
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

export const imageFacts = (bytes: Buffer) => sharp(bytes).metadata();
