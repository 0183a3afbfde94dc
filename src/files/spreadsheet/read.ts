import { Readable } from 'node:stream';
import { decodeText, type TextEncoding } from './text-decoding.js';
import { type Delimiter, readDelimited, UnclosedQuote } from './delimited.js';
import type { SheetTable } from './table.js';
import { readXlsx } from './xlsx.js';

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

/** Why a file could not be read as a spreadsheet: the bytes are another kind of file, or a damaged workbook. */
export class UnreadableSpreadsheet extends Error {
  constructor(
    readonly reason: 'legacy-xls' | 'not-a-spreadsheet' | 'damaged',
    message: string,
  ) {
    super(message);
  }
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/**
 * Reads a spreadsheet file: an XLSX workbook (a ZIP) sheet by sheet, or delimited text (CSV with any of the usual
 * delimiters, TSV) as one sheet named after `name`. The legacy binary .xls format and other binary files are refused
 * with the reason, as is a damaged workbook.
 */
export async function readSpreadsheet(
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
      return { format: 'xlsx', sheets: await readXlsx(Readable.from([bytes]), opts.maxRows) };
    } catch {
      throw new UnreadableSpreadsheet(
        'damaged',
        'This ZIP file is not a readable Excel workbook (.xlsx); open it in Excel, save it again and resend it.',
      );
    }
  }
  // Text never holds NUL bytes except as UTF-16, which decodeText recognises by its byte order mark.
  const { text, encoding } = decodeText(bytes);
  if (encoding !== 'utf-16le' && encoding !== 'utf-16be' && bytes.includes(0)) {
    throw new UnreadableSpreadsheet(
      'not-a-spreadsheet',
      'This file is neither CSV nor an Excel workbook (.xlsx); export the schedule as one of those and send it.',
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
