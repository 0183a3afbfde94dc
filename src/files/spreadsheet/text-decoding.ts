/**
 * The text of a delimited file as its author's spreadsheet wrote it. Excel on Windows saves "CSV" in the machine's
 * code page (Windows-1252 in the UK and western Europe: "£" is the single byte A3), "CSV UTF-8" with a byte order
 * mark, and "Unicode text" as UTF-16 little-endian with one. So: a byte order mark decides; otherwise the bytes are
 * taken as UTF-8 only if they are valid UTF-8 (a strict decode, which Windows-1252 text with any accented letter or
 * "£" almost never is), and as Windows-1252 if not. Windows-1252 decodes every byte, so nothing is refused here.
 */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: TextEncoding;
}

const BOMS: ReadonlyArray<[TextEncoding, readonly number[]]> = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

export function decodeText(bytes: Uint8Array): DecodedText {
  for (const [encoding, bom] of BOMS) {
    if (bom.every((b, i) => bytes[i] === b)) {
      // TextDecoder drops the byte order mark itself (ignoreBOM defaults to false).
      return { text: new TextDecoder(encoding).decode(bytes), encoding };
    }
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}
