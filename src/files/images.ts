import { open } from 'node:fs/promises';
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import { PHOTOGRAPH_TYPES, type PhotographType } from '../../db/vocabulary.js';
import { ServiceError } from '../core/errors.js';

/**
 * sharp (libvips) is loaded on first use, not at start: most processes (a stdio MCP server answering an agent) never
 * touch an image, and loading it costs time and some 30 MB. libvips keeps decoded images in a cache by default: a
 * server decoding uploads one after another gains nothing from it and would hold hundreds of megabytes.
 */
let loaded: Promise<(input: string, options?: SharpOptions) => Sharp> | undefined;
const sharp = () =>
  (loaded ??= import('sharp').then(({ default: s }) => {
    s.cache(false);
    return s;
  }));

export { PHOTOGRAPH_TYPES, type PhotographType };

/** Larger images are refused before decoding: 24 megapixels is a phone, 100 a medium-format camera; more is a bomb. */
export const MAX_PIXELS = 100_000_000;

export interface ImageFacts {
  mediaType: PhotographType;
  /** Upright size: EXIF orientation applied. */
  width: number;
  height: number;
}

/** Other names senders use for the same types. */
const ALIASES: Record<string, PhotographType> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/heif': 'image/heic',
  'image/heic-sequence': 'image/heic',
  'image/heif-sequence': 'image/heic',
};

/** A declared media type in its plain form (`image/JPEG; charset=x` → image/jpeg), aliases folded. */
export function normalMediaType(declared: string): string {
  const plain = declared.split(';')[0]!.trim().toLowerCase();
  return ALIASES[plain] ?? plain;
}

const unsupported = (what: string) =>
  new ServiceError(
    'UNSUPPORTED_MEDIA_TYPE',
    `${what} Photographs are JPEG, PNG, WebP, HEIC or AVIF; export it as JPEG and send it again.`,
  );

/**
 * What the file is, read from its bytes (the header only; nothing is decoded yet): the type, and the upright size.
 * A declared type that disagrees with the bytes, or a type not kept, is 415; a size past MAX_PIXELS is 422.
 */
export async function inspectImage(path: string, declared: string | undefined): Promise<ImageFacts> {
  let meta: Metadata;
  try {
    meta = await (await sharp())(path, { limitInputPixels: false }).metadata();
  } catch {
    // A photograph's signature with a header that does not read is a damaged photograph; anything else is not one.
    if (await looksLikePhotograph(path)) throw unreadable();
    throw unsupported('The file is not an image this server can read.');
  }
  const mediaType = typeOf(meta);
  if (!mediaType) throw unsupported(`The file is ${describe(meta)}, which is not kept as a photograph.`);
  const sent = declared ? normalMediaType(declared) : undefined;
  if (sent && sent !== 'application/octet-stream' && sent !== mediaType) {
    throw new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The file was sent as ${sent.slice(0, 60)} but its bytes are ${mediaType}; send its real type (or application/octet-stream to let the server tell).`,
    );
  }
  const { width = 0, height = 0 } = meta;
  if (!width || !height) throw unreadable();
  if (width * height > MAX_PIXELS) {
    // Megapixels to two decimals, rounded up: an image past the limit never reads as the limit itself.
    const megapixels = Math.ceil((width * height) / 1e4) / 100;
    throw new ServiceError(
      'IMAGE_TOO_LARGE',
      `The image is ${width} × ${height} pixels (${megapixels} megapixels); photographs up to ${MAX_PIXELS / 1e6} megapixels are kept. Resize it and send it again.`,
    );
  }
  const sideways = (meta.orientation ?? 1) >= 5;
  return { mediaType, width: sideways ? height : width, height: sideways ? width : height };
}

/** The first bytes of JPEG, PNG, WebP and HEIF/AVIF files (ISO-BMFF `ftyp` with an image brand). */
async function looksLikePhotograph(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(12);
    await handle.read(head, 0, 12, 0);
    const ascii = (from: number, to: number) => head.toString('latin1', from, to);
    return (
      (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) ||
      head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) ||
      (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') ||
      (ascii(4, 8) === 'ftyp' && /^(heic|heix|hevc|heim|heis|mif1|msf1|avif|avis)$/.test(ascii(8, 12)))
    );
  } finally {
    await handle.close();
  }
}

function typeOf(meta: Metadata): PhotographType | undefined {
  switch (meta.format) {
    case 'jpeg':
      return 'image/jpeg';
    case 'png':
      return 'image/png';
    case 'webp':
      return 'image/webp';
    case 'heif':
      return meta.compression === 'av1' ? 'image/avif' : 'image/heic';
    default:
      return undefined;
  }
}

const describe = (meta: Metadata) => (meta.format ? `${meta.format.toUpperCase()}` : 'of an unknown kind');

const unreadable = () =>
  new ServiceError(
    'IMAGE_UNREADABLE',
    'The image is damaged or incomplete and cannot be decoded; send the original file again.',
  );

/** Derived files are JPEG: every client and model reads it, and it carries no metadata once made here. */
export const DERIVED_TYPE = 'image/jpeg';

/**
 * A variant of an original: upright from its EXIF orientation, turned by the studio's rotation, bounded to the
 * long edge (never enlarged), re-encoded at lower quality while over maxBytes, flattened onto white, encoded as JPEG with no metadata at all (sharp writes
 * none unless asked: GPS, camera and EXIF never leave in a derivative). A file that does not decode is 422.
 */
export async function deriveImage(
  originalPath: string,
  rotation: number,
  bound: { longEdge: number; maxBytes?: number },
): Promise<Buffer> {
  const open = await sharp();
  const encode = (quality: number) =>
    open(originalPath, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .autoOrient()
      .rotate(rotation)
      .resize({ width: bound.longEdge, height: bound.longEdge, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality, mozjpeg: true })
      .toBuffer();
  try {
    for (const quality of [82, 70, 55]) {
      const bytes = await encode(quality);
      if (!bound.maxBytes || bytes.length <= bound.maxBytes || quality === 55) return bytes;
    }
    throw unreadable();
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    const message = err instanceof Error ? err.message : '';
    // Sharp's prebuilt libheif reads AVIF but has no HEVC decoder (a patent matter): such a HEIC cannot be shown.
    if (/heif|hevc|compression format has not been built in/i.test(message))
      throw unsupported('This HEIC photograph uses a compression this server cannot decode.');
    throw unreadable();
  }
}
