import type { ImportField } from './fields.js';

/**
 * Something about one cell that a person should know before the import is applied. An `error` keeps its row from
 * becoming a line (the import is refused until it is fixed, or applied without such rows when asked); a `warning`
 * says what was done instead (a default unit, a draft status, a link left out).
 */
export interface CellProblem {
  /** The spreadsheet's own row number. */
  row: number;
  /** The column letter, or null for a problem about the whole row. */
  column: string | null;
  /** The column's heading, as written. */
  heading: string | null;
  field: ImportField | null;
  severity: 'error' | 'warning';
  /** The cell's text, cut to 100 characters. */
  value: string;
  message: string;
}

/** The first problems shown in full; the counts always cover them all. */
export const PROBLEMS_SHOWN = 100;

/** "row 12, column C (Net)": where a problem is, as a person finds it in the spreadsheet. */
export const whereIs = (p: Pick<CellProblem, 'row' | 'column' | 'heading'>) =>
  `row ${p.row}${p.column ? `, column ${p.column}${p.heading ? ` (${p.heading})` : ''}` : ''}`;
