import type { Readable } from 'node:stream';
import { cellNumberText } from './xlsx-numbers.js';
import { cleanCell, type SheetTable, trimRow } from './table.js';

/** Columns past this are not read: no schedule is wider, and a sheet claiming 16,384 columns must not cost memory. */
export const MAX_COLUMNS = 200;

/**
 * An XLSX workbook's sheets, in the file's order, each as a table of cell texts (table.ts). Read with exceljs's
 * streaming reader, so a large workbook is never held whole in memory, and each sheet stops being collected after
 * `maxRows` rows (`truncated`). The reader also sees cells as the file stores them: a merged range keeps its value in
 * its first cell only and the others are empty, which is how a heading row merged across a schedule reads as a row
 * with only its first cell filled.
 *
 * Cells: a number as its exact decimal (xlsx-numbers.ts; "35%" for a percent-formatted one), a formula as its cached
 * result (a formula saved without one, as some generators write, is "=FORMULA" so a person sees what is there), a
 * date as YYYY-MM-DD, rich text as its plain text, TRUE/FALSE, an error as its code (#REF!).
 */
export async function readXlsx(source: Readable, maxRows: number): Promise<SheetTable[]> {
  // Loaded on first use: exceljs is large, and most server starts (every MCP stdio session) never read a workbook.
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const sheets: SheetTable[] = [];
  for await (const worksheet of reader) {
    const sheet = worksheet as unknown as AsyncIterable<SheetRow> & { name: string };
    const rows: string[][] = [];
    let truncated = false;
    for await (const row of sheet) {
      if (row.number > maxRows) {
        // Rows past the limit that hold nothing (formatting only) do not make the sheet too large.
        truncated ||= row.hasValues;
        continue;
      }
      const cells: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        if (column <= MAX_COLUMNS) cells[column - 1] = cleanCell(cellText(cell.value, cell.numFmt));
      });
      // Rows the file leaves out (blank ones) still count, so row numbers match the spreadsheet's.
      while (rows.length < row.number - 1) rows.push([]);
      rows.push(trimRow(Array.from(cells, (c) => c ?? '')));
    }
    sheets.push({ name: sheet.name, rows, truncated });
  }
  return sheets;
}

interface SheetRow {
  number: number;
  hasValues: boolean;
  eachCell(
    opts: { includeEmpty: boolean },
    fn: (cell: { value: unknown; numFmt?: string }, column: number) => void,
  ): void;
}

function cellText(value: unknown, numFmt: string | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return cellNumberText(value, isPercent(numFmt));
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return (v.richText as Array<{ text?: string }>).map((r) => r.text ?? '').join('');
    if ('formula' in v || 'sharedFormula' in v) {
      return v.result === undefined ? `=${String(v.formula ?? v.sharedFormula)}` : cellText(v.result, numFmt);
    }
    if ('error' in v) return String(v.error);
    if ('text' in v) return cellText(v.text, numFmt);
  }
  return String(value);
}

/** A percent format ("0%", "0.00%"), not a literal % inside quotes. */
const isPercent = (numFmt: string | undefined) => !!numFmt && /%/.test(numFmt.replace(/"[^"]*"/g, ''));

/** A date cell as the calendar date it shows (exceljs gives it as UTC midnight), with the time only when it has one. */
function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 16).replace('T', ' ');
}
