import { PassThrough } from 'node:stream';
import type { BlobStore } from '../../../files/blob-store.js';
import { drained, streamToBlob } from '../../../files/stream-to-blob.js';
import type { Currency } from '../../../../db/vocabulary.js';
import type { Cell, Table } from './table.js';

/**
 * A cell's number from its exact decimal string. `Number("1250.35")` is the double nearest that decimal, and a
 * decimal of at most 15 significant digits survives the trip to a double and back unchanged (IEEE 754 binary64 keeps
 * 15 decimal digits exactly: DBL_DIG). Spreadsheets store and show numbers as these doubles to 15 digits, so a money
 * cell holds exactly the amount, not an approximation: the string → number step is the last one, never arithmetic on
 * floats. An amount of more digits than that (a total past a trillion, to the penny) no spreadsheet number can hold
 * exactly: it is written as text, so nothing is silently changed.
 */
export function spreadsheetNumber(decimal: string): number | string {
  const digits = decimal.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  return digits.length <= 15 ? Number(decimal) : decimal;
}

/** The currency format money cells show with: `"£"#,##0.00`, `"¥"#,##0`, `"CHF "#,##0.00`; negatives with a minus. */
export function currencyFormat(currency: Currency, places: number): string {
  const sign: Partial<Record<Currency, string>> = { GBP: '£', EUR: '€', USD: '$', JPY: '¥' };
  const prefix = sign[currency] ?? `${currency} `;
  const number = places ? `#,##0.${'0'.repeat(places)}` : '#,##0';
  return `"${prefix}"${number};-"${prefix}"${number}`;
}

const value = (cell: Cell) => (cell === null ? null : 'text' in cell ? cell.text : spreadsheetNumber(cell.decimal));

/**
 * The table as an XLSX workbook, written with exceljs's streaming writer straight into the blob store: each row is
 * committed (serialised and let go) as it is added, so the workbook is never built whole in memory. Sheet "Schedule":
 * a frozen header row with a filter on every column, a row per piece, money in currency format, then the total (below
 * the filtered range, so sorting never moves it); sheet "Removed" when pieces were.
 */
export async function writeXlsx(files: BlobStore, table: Table, title: string) {
  const { default: ExcelJS } = await import('exceljs');
  const out = new PassThrough();
  return streamToBlob(files, out, async () => {
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    book.title = title;
    book.creator = 'studio server';
    const sheet = book.addWorksheet('Schedule', { views: [{ state: 'frozen', ySplit: 1 }] });
    const money = currencyFormat(table.currency, table.moneyPlaces);
    sheet.columns = table.columns.map((c, i) => ({
      key: `c${i}`,
      header: c.header,
      width: c.width,
      style: c.kind === 'money' ? { numFmt: money } : {},
    }));
    sheet.getRow(1).font = { bold: true };
    sheet.autoFilter = {
      from: { row: 1, column: 1 },
      to: { row: 1 + table.rows.length, column: table.columns.length },
    };
    sheet.getRow(1).commit();
    for (const row of table.rows) {
      sheet.addRow(row.map(value)).commit();
      await drained(out);
    }
    if (table.total !== null) {
      sheet.addRow([]).commit();
      const totalRow = sheet.addRow(table.columns.map((_, i) => (i === 0 ? 'Total' : null)));
      const last = totalRow.getCell(table.columns.length);
      last.value = spreadsheetNumber(table.total);
      last.numFmt = money;
      totalRow.font = { bold: true };
      totalRow.commit();
    }
    sheet.commit();
    if (table.removed.length) {
      const removed = book.addWorksheet('Removed');
      removed.columns = [
        { key: 'r', header: 'Reference', width: 11 },
        { key: 'h', header: 'Heading', width: 40 },
        { key: 'd', header: 'Removed on', width: 20 },
      ];
      removed.getRow(1).font = { bold: true };
      for (const r of table.removed) removed.addRow([r.reference, r.heading, r.removedOn]).commit();
      removed.commit();
    }
    await book.commit();
  });
}
