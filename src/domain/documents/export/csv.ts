import { PassThrough } from 'node:stream';
import type { BlobStore } from '../../../files/blob-store.js';
import { drained, streamToBlob } from '../../../files/stream-to-blob.js';
import type { Cell, Table } from './table.js';

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const field = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** Text as the table holds it (already through the formula guard, cell-guard.ts), quoted as RFC 4180 asks. */
const cellText = (cell: Cell) => (cell === null ? '' : 'text' in cell ? field(cell.text) : cell.decimal);

/**
 * The table as CSV (UTF-8 with a byte-order mark, so spreadsheet programs read accents right; CRLF line ends):
 * amounts are plain decimals ("1250.00", no sign or grouping) that spreadsheets read as numbers, exactly as the
 * client document states them; the currency is in the headers. Written a row at a time into the blob store.
 */
export async function writeCsv(files: BlobStore, table: Table) {
  const out = new PassThrough();
  return streamToBlob(files, out, async () => {
    out.write('\uFEFF');
    out.write(`${table.columns.map((c) => field(c.header)).join(',')}\r\n`);
    for (const row of table.rows) {
      out.write(`${row.map(cellText).join(',')}\r\n`);
      await drained(out);
    }
    out.end();
  });
}
