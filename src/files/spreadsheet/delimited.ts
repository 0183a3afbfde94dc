import { cleanCell, type SheetTable, trimRow } from './table.js';

/** The delimiters a studio's spreadsheets write: comma, semicolon (Excel where the decimal mark is a comma), tab, pipe. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** The text ends inside a quoted cell: the file was cut short, or a cell starts with a quote it never closes. */
export class UnclosedQuote extends Error {
  constructor(readonly row: number) {
    super(`A quoted cell starting in row ${row} is never closed.`);
  }
}

const QUOTE = 34;
const CR = 13;
const LF = 10;

/**
 * Delimited text as records of cells, as Excel writes and reads it, and exactly as csv-parse reads it with
 * relax_quotes and relax_column_count (the reader this replaces: it built an error object, a stack trace and JSON
 * copies of its options, for every record whose cell count differs from the first record's, which is every row under
 * a sheet's title row, three quarters of reading a 10,000-row file; test/imports/parsing.test.ts holds the two to the
 * same records on random text):
 * - records end at the first line end seen outside quotes ("\r\n", "\n" or "\r"), and only at that kind after it;
 *   a line end as the text's last characters ends the last record rather than starting an empty one;
 * - a cell starting with a quote is quoted: delimiters and line ends inside it are text, and "" is one quote; its
 *   closing quote must come before a delimiter, a line end or the end of the text, otherwise the cell is read as
 *   unquoted text from the opening quote on (a bare quote inside a cell, 12" cushion, is text);
 * - rows may have any number of cells: the import's rules decide what a short or long row means.
 * At most `maxRecords` records are read. A quoted cell still open at the end of the text throws UnclosedQuote.
 */
export function parseDelimited(text: string, delimiter: Delimiter, maxRecords = Infinity): string[][] {
  const sep = delimiter.charCodeAt(0);
  const end = text.length;
  /** The record delimiter, once the first line end outside quotes has shown which kind the text uses. */
  let newline: string | undefined;
  /** The length of the line end at `i` (0: none), finding the text's kind on the first one. */
  const lineEndAt = (i: number): number => {
    const c = text.charCodeAt(i);
    if (c !== CR && c !== LF) return 0;
    newline ??= c === CR && text.charCodeAt(i + 1) === LF ? '\r\n' : c === CR ? '\r' : '\n';
    return text.startsWith(newline, i) ? newline.length : 0;
  };
  /** Unquoted text from `i` to the next delimiter or line end (or the end of the text): its end. */
  const unquotedEnd = (i: number): number => {
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === sep || ((c === CR || c === LF) && lineEndAt(i) > 0)) return i;
      i += 1;
    }
    return end;
  };

  const records: string[][] = [];
  let record: string[] = [];
  let pos = 0;
  while (records.length < maxRecords) {
    if (pos >= end && record.length === 0) break;
    let value: string;
    if (text.charCodeAt(pos) === QUOTE) {
      value = '';
      let from = pos + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) throw new UnclosedQuote(text.slice(0, pos).split(newline ?? '\n').length);
        value += text.slice(from, q);
        if (text.charCodeAt(q + 1) === QUOTE) {
          value += '"';
          from = q + 2;
          continue;
        }
        pos = q + 1;
        if (pos < end && text.charCodeAt(pos) !== sep && lineEndAt(pos) === 0) {
          // Not a closing quote after all: the cell is text as written, quotes and all, up to its delimiter.
          const to = unquotedEnd(pos);
          value = `"${value}"${text.slice(pos, to)}`;
          pos = to;
        }
        break;
      }
    } else {
      const to = unquotedEnd(pos);
      value = text.slice(pos, to);
      pos = to;
    }
    record.push(value);
    if (pos >= end) {
      records.push(record);
      break;
    }
    if (text.charCodeAt(pos) === sep) {
      pos += 1;
      continue;
    }
    pos += lineEndAt(pos);
    records.push(record);
    record = [];
  }
  return records;
}

/**
 * Which delimiter the text uses: each candidate parses a sample (the first 50 records), and the one whose records most
 * often agree on one cell count above one wins (ties: more cells, then the order above). A file of one column has
 * no delimiter to find and reads as comma-separated.
 */
export function detectDelimiter(text: string): Delimiter {
  const sample = sampleOf(text);
  let best: { delimiter: Delimiter; agree: number; cells: number } = { delimiter: ',', agree: 0, cells: 1 };
  for (const delimiter of DELIMITERS) {
    let records: string[][];
    try {
      records = parseDelimited(sample, delimiter, 50);
    } catch {
      continue;
    }
    const counts = new Map<number, number>();
    for (const r of records) {
      const n = trimRow(r).length;
      if (n > 0) counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    for (const [cells, agree] of counts) {
      if (cells < 2) continue;
      if (agree > best.agree || (agree === best.agree && cells > best.cells)) best = { delimiter, agree, cells };
    }
  }
  return best.delimiter;
}

/** The first 64 KiB, cut at a line end, so detection stays cheap on a 24 MiB file. */
function sampleOf(text: string): string {
  if (text.length <= 65_536) return text;
  const cut = text.lastIndexOf('\n', 65_536);
  return text.slice(0, cut > 0 ? cut : 65_536);
}

/**
 * Delimited text as one sheet: at most `maxRows` rows (`truncated` says there were more). Quoted cells may hold the
 * delimiter and line breaks (a multi-line cell is one row, as in the spreadsheet).
 */
export function readDelimited(
  text: string,
  opts: { name: string; maxRows: number; delimiter?: Delimiter },
): SheetTable & { delimiter: Delimiter } {
  const delimiter = opts.delimiter ?? detectDelimiter(text);
  const body = text.endsWith('\n') ? text.replace(/\r?\n$/, '') : text;
  const records = parseDelimited(body, delimiter, opts.maxRows + 1);
  const truncated = records.length > opts.maxRows;
  return {
    name: opts.name,
    delimiter,
    rows: records.slice(0, opts.maxRows).map((r) => trimRow(r.map(cleanCell))),
    truncated,
  };
}
