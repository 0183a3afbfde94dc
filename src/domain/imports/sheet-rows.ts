import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ImportRow } from './record.js';
import { ServiceError } from '../../core/errors.js';
import type { Row } from '../../files/spreadsheet/table.js';
import { tooManyRows } from './limits.js';

/**
 * The rows of one sheet of an import, as read at upload: the import's own sheet, or another sheet of its workbook by
 * name. A sheet over the row limit, or one not kept beside larger sheets, is refused with what to do instead.
 */
export async function sheetRows(
  db: Kysely<Database>,
  record: ImportRow,
  name: string | null,
): Promise<{ name: string; rows: Row[] }> {
  const sheets = await db
    .selectFrom('import_sheets')
    .select(['name', 'cells', 'too_large'])
    .where('import_id', '=', record.id)
    .orderBy('position')
    .execute();
  const wanted = (name ?? record.sheet ?? '').trim().toLowerCase();
  const sheet = sheets.find((s) => s.name.trim().toLowerCase() === wanted) ?? (name === null ? sheets[0] : undefined);
  const names = sheets.map((s) => `"${s.name}"`).join(', ');
  if (!sheet) {
    throw new ServiceError('VALIDATION_FAILED', `The file has no sheet "${name}"; its sheets are ${names}.`, {
      errors: [{ path: 'sheet', message: `One of ${names}.` }],
    });
  }
  if (sheet.too_large) throw tooManyRows(`The sheet "${sheet.name}"`);
  if (sheet.cells === null) {
    throw new ServiceError(
      record.status === 'committed' || record.status === 'canceled' ? 'IMPORT_WRONG_STATE' : 'PAYLOAD_TOO_LARGE',
      record.status === 'committed' || record.status === 'canceled'
        ? `This import is ${record.status}, and its sheets are no longer kept; upload the file again to import it afresh.`
        : `The sheet "${sheet.name}" was not kept beside the workbook's larger sheets; upload the file again with sheet: "${sheet.name}".`,
    );
  }
  return { name: sheet.name, rows: JSON.parse(sheet.cells) as Row[] };
}
