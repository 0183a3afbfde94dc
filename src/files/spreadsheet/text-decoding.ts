/**
 * The text of a delimited file as its author's spreadsheet wrote it. Excel on Windows saves "CSV" in the machine's
 * code page (Windows-1252 in the UK and western Europe: "£" is the single byte A3), "CSV UTF-8" with a byte order
 * mark, and "Unicode text" as UTF-16 little-endian with one. So: a byte order mark decides; otherwise the bytes are
 * taken as UTF-8 only if they are valid UTF-8 (a strict decode, which Windows-1252 text with any accented letter or
 * "£" almost never is), and as Windows-1252 if not. Windows-1252 decodes every byte, so nothing is refused here;
 * but a file that is neither, holding UTF-8 sequences beside bytes UTF-8 cannot read (rows pasted from two programs),
 * says so (`mixed`): taken as Windows-1252, its UTF-8 "é" would silently become "Ã©".
 */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: TextEncoding;
  /** For Windows-1252 text that also holds valid UTF-8 sequences: the first line (from 1) of each. */
  mixed?: { utf8Line: number; cp1252Line: number };
}

/** The length of the valid UTF-8 sequence of two to four bytes starting at `i`, or 0 if there is none. */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  const cont = (k: number) => {
    const c = bytes[i + k];
    return c !== undefined && c >= 0x80 && c <= 0xbf;
  };
  const second = bytes[i + 1] ?? 0;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f)) return 0;
    return cont(1) && cont(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    if ((b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) return 0;
    return cont(1) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Where bytes that are not valid UTF-8 also hold valid UTF-8 sequences: the line of the first of each, or undefined. */
function mixedLines(bytes: Uint8Array): { utf8Line: number; cp1252Line: number } | undefined {
  let utf8 = -1;
  let other = -1;
  for (let i = 0; i < bytes.length && (utf8 < 0 || other < 0); ) {
    if (bytes[i]! < 0x80) {
      i++;
      continue;
    }
    const n = utf8SequenceAt(bytes, i);
    if (n) {
      if (utf8 < 0) utf8 = i;
      i += n;
    } else {
      if (other < 0) other = i;
      i++;
    }
  }
  if (utf8 < 0 || other < 0) return undefined;
  const lineOf = (at: number) => {
    let line = 1;
    for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++;
    return line;
  };
  return { utf8Line: lineOf(utf8), cp1252Line: lineOf(other) };
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
    const mixed = mixedLines(bytes);
    return {
      text: new TextDecoder('windows-1252').decode(bytes),
      encoding: 'windows-1252',
      ...(mixed && { mixed }),
    };
  }
}
