import { CsvError, parse } from 'csv-parse/sync';
import { cellTooLong, MAX_CELL_CHARS } from './reading-limits.js';
import { cleanCell, columnLetter, type SheetTable, trimRow } from './table.js';

/** The delimiters a studio's spreadsheets write: comma, semicolon (Excel where the decimal mark is a comma), tab, pipe. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

const OPTIONS = {
  // A spreadsheet row may have fewer or more cells than the heading row; the rules decide what that means.
  relax_column_count: true,
  // A bare quote inside an unquoted cell (12" cushion) is text, as Excel reads it, not a broken file.
  relax_quotes: true,
  skip_empty_lines: false,
} as const;

/** The text ends inside a quoted cell: the file was cut short, or a cell starts with a quote it never closes. */
export class UnclosedQuote extends Error {
  constructor(readonly row: number) {
    super(`A quoted cell starting in row ${row} is never closed.`);
  }
}

/**
 * csv-parse's records of `text`. With relax_column_count it still builds an error object (a captured stack and a JSON
 * copy of the record) for every record whose cell count differs from the first record's, and under a sheet's title
 * row that is every row: most of the time of reading a 10,000-row file went to stack traces nobody reads. The parse
 * is synchronous, so capturing none while it runs touches nothing else. An unclosed quote becomes UnclosedQuote.
 */
function parseRecords(text: string, options: typeof OPTIONS & { delimiter: Delimiter; to: number }): string[][] {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return parse(text, options) as string[][];
  } catch (err) {
    if (err instanceof CsvError && err.code === 'CSV_QUOTE_NOT_CLOSED') {
      // The records read whole before it: the open cell's record is the next one.
      throw new UnclosedQuote(Number((err as CsvError & { records?: number }).records ?? 0) + 1);
    }
    throw err;
  } finally {
    Error.stackTraceLimit = limit;
  }
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
      records = parseRecords(sample, { ...OPTIONS, delimiter, to: 50 });
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
 * delimiter and line breaks (a multi-line cell is one row, as in the spreadsheet). A cell holds at most 32,767
 * characters, as in a workbook (reading-limits.ts).
 */
export function readDelimited(
  text: string,
  opts: { name: string; maxRows: number; delimiter?: Delimiter },
): SheetTable & { delimiter: Delimiter } {
  const delimiter = opts.delimiter ?? detectDelimiter(text);
  const body = text.endsWith('\n') ? text.replace(/\r?\n$/, '') : text;
  const rows = parseRecords(body, { ...OPTIONS, delimiter, to: opts.maxRows + 1 });
  const truncated = rows.length > opts.maxRows;
  return {
    name: opts.name,
    delimiter,
    rows: rows.slice(0, opts.maxRows).map((r, i) =>
      trimRow(
        r.map((cell, c) => {
          const clean = cleanCell(cell);
          if (clean.length > MAX_CELL_CHARS) throw cellTooLong(`The cell in row ${i + 1}, column ${columnLetter(c)},`);
          return clean;
        }),
      ),
    ),
    truncated,
  };
}
