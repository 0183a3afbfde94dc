import { parse } from 'csv-parse/sync';
import { cleanCell, type SheetTable, trimRow } from './table.js';

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
      records = parse(sample, { ...OPTIONS, delimiter, to: 50 }) as string[][];
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
  const records = parse(body, { ...OPTIONS, delimiter, to: opts.maxRows + 1 }) as string[][];
  const truncated = records.length > opts.maxRows;
  return {
    name: opts.name,
    delimiter,
    rows: records.slice(0, opts.maxRows).map((r) => trimRow(r.map(cleanCell))),
    truncated,
  };
}
