import { ServiceError } from '../../core/errors.js';
import { Gate } from '../gate.js';
import { type Delimiter, readDelimited, UnclosedQuote } from './delimited.js';
import { damagedWorkbook, UnreadableSpreadsheet } from './reading-limits.js';
import type { SheetTable } from './table.js';
import { decodeText, type TextEncoding } from './text-decoding.js';
import { readXlsx } from './xlsx.js';

export { UnreadableSpreadsheet } from './reading-limits.js';

/** The spreadsheet formats a schedule is imported from, as the file's bytes say (never as its name or type claims). */
export const SPREADSHEET_FORMATS = ['csv', 'xlsx'] as const;
export type SpreadsheetFormat = (typeof SPREADSHEET_FORMATS)[number];

export interface Spreadsheet {
  format: SpreadsheetFormat;
  /** For delimited text: how it was written. */
  encoding?: TextEncoding;
  delimiter?: Delimiter;
  sheets: SheetTable[];
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/**
 * At most two files are read at once, as photographs are decoded: each reading is bounded (reading-limits.ts), and
 * this bounds how many bounds add up. The rest wait their turn.
 */
const reading = new Gate(2);

/**
 * Reads a spreadsheet file: an XLSX workbook (a ZIP) sheet by sheet, or delimited text (CSV with any of the usual
 * delimiters, TSV) as one sheet named after `name`. The legacy binary .xls format and other binary files are refused
 * with the reason, as is a damaged workbook; a file past a reading limit is refused (PAYLOAD_TOO_LARGE) as soon as
 * the reader gets there.
 */
export function readSpreadsheet(
  bytes: Buffer,
  opts: { name: string; maxRows: number; delimiter?: Delimiter },
): Promise<Spreadsheet> {
  return reading.run(() => read(bytes, opts));
}

async function read(
  bytes: Buffer,
  opts: { name: string; maxRows: number; delimiter?: Delimiter },
): Promise<Spreadsheet> {
  if (startsWith(bytes, OLE)) {
    throw new UnreadableSpreadsheet(
      'legacy-xls',
      'This is an old-style Excel file (.xls); save it as an Excel Workbook (.xlsx) or as CSV and send that.',
    );
  }
  if (startsWith(bytes, ZIP)) {
    try {
      return { format: 'xlsx', sheets: await readXlsx(bytes, opts.maxRows) };
    } catch (err) {
      if (err instanceof ServiceError || err instanceof UnreadableSpreadsheet) throw err;
      throw damagedWorkbook();
    }
  }
  // Text never holds NUL bytes except as UTF-16, which decodeText recognises by its byte order mark.
  const { text, encoding, mixed } = decodeText(bytes);
  if (encoding !== 'utf-16le' && encoding !== 'utf-16be' && bytes.includes(0)) {
    throw new UnreadableSpreadsheet(
      'not-a-spreadsheet',
      'This file is neither CSV nor an Excel workbook (.xlsx); export the schedule as one of those and send it.',
    );
  }
  if (mixed) {
    throw new UnreadableSpreadsheet(
      'damaged',
      `This file mixes two text encodings: line ${mixed.utf8Line} is written in UTF-8 and line ${mixed.cp1252Line} in Windows-1252, so accented letters and "£" in one of them would be read wrong. Open it in your spreadsheet, save it again as "CSV UTF-8" and send that.`,
    );
  }
  try {
    const { delimiter, ...sheet } = readDelimited(text, opts);
    return { format: 'csv', encoding, delimiter, sheets: [sheet] };
  } catch (err) {
    if (!(err instanceof UnclosedQuote)) throw err;
    throw new UnreadableSpreadsheet(
      'damaged',
      `A cell starting with a quote in row ${err.row} is never closed, so the rest of the file would be one cell; close the quote (or remove it) and send the file again.`,
    );
  }
}
