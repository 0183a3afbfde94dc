import { ServiceError } from '../../core/errors.js';
import type { Row } from '../../files/spreadsheet/table.js';

/** The most rows one import or paste takes (rows below the headings that hold anything). */
export const MAX_IMPORT_ROWS = 10_000;
/** A file sent base64 (MCP, tRPC) is at most this large decoded, as photographs are. */
export const MAX_IMPORT_BYTES = 24 * 1024 * 1024;
/** Rows read per sheet: the import's rows, and room above them for titles, headings and blank rows. */
export const ROWS_READ = MAX_IMPORT_ROWS + 100;
/** Cells kept across a workbook's sheets: the chosen sheet always, others while they fit beside it. */
export const MAX_KEPT_CELLS = 1_000_000;

/** Rows below `headerRow` that hold anything. */
export const dataRowCount = (rows: readonly Row[], headerRow: number) =>
  rows.slice(headerRow).filter((r) => r.some((c) => c.trim() !== '')).length;

const count = (n: number) => n.toLocaleString('en-GB');

/**
 * The refusal of a sheet over the row limit, before any work is done on it: with its count of rows when it was read
 * whole; else (the reader stopped at ROWS_READ) with the row past them that holds something, when the reader knows it.
 */
export const tooManyRows = (what: string, rows?: number, beyondRow?: number) =>
  new ServiceError(
    'PAYLOAD_TOO_LARGE',
    rows !== undefined
      ? `${what} has ${count(rows)} rows; an import takes at most ${count(MAX_IMPORT_ROWS)}. Split the schedule into several files (by room, say) and import each.`
      : `${what} ${beyondRow === undefined ? 'goes on' : `holds something in row ${count(beyondRow)},`} past row ${count(ROWS_READ)}, the last an import reads (it takes at most ${count(MAX_IMPORT_ROWS)} rows below the headings). Delete what is below the schedule, or split the schedule into several files (by room, say) and import each.`,
    { extra: { maxRows: MAX_IMPORT_ROWS } },
  );
