import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ImportStatus } from '../../../db/vocabulary.js';
import {
  IMPORT_RECORD,
  ImportStatus as StatusField,
  type ImportResult,
  type ImportRow,
  type ShownSheet,
} from './record.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import { inProject } from '../kit/in-project.js';

export type { ImportResult, ShownSheet };

/** An import as the API shows it, with its file's sheets. */
export const presentImport = (row: ImportRow, sheets: readonly ShownSheet[]) =>
  IMPORT_RECORD.present(row, { sheets: [...sheets] });
export type PresentedImport = ReturnType<typeof presentImport>;

/** The sheets of these imports, in file order, in one query. */
export async function sheetsOf(db: Kysely<Database>, importIds: readonly string[]) {
  const bySheet = new Map<string, ShownSheet[]>();
  if (!importIds.length) return bySheet;
  const rows = await db
    .selectFrom('import_sheets')
    .select(['import_id', 'name', 'row_count', 'too_large', (eb) => eb('cells', 'is not', null).as('kept')])
    .where('import_id', 'in', importIds)
    .orderBy('import_id')
    .orderBy('position')
    .execute();
  for (const r of rows) {
    const list = bySheet.get(r.import_id) ?? [];
    list.push({ name: r.name, rows: r.row_count, available: r.too_large === 0 && Boolean(r.kept) });
    bySheet.set(r.import_id, list);
  }
  return bySheet;
}

export async function presentImports(db: Kysely<Database>, rows: readonly ImportRow[]) {
  const sheets = await sheetsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentImport(r, sheets.get(r.id) ?? []));
}

export async function loadImport(
  ctx: Pick<ActionContext, 'db'>,
  projectId: string,
  importId: string,
): Promise<ImportRow> {
  const row = await inProject(ctx.db, 'imports', projectId, importId);
  if (!row) throw new ServiceError('NOT_FOUND', `No import ${importId} exists in this project.`);
  return row;
}

export async function getImport(ctx: ActionContext, projectId: string, importId: string) {
  const [shown] = await presentImports(ctx.db, [await loadImport(ctx, projectId, importId)]);
  return shown!;
}

export const IMPORT_SORTS = namedSorts(
  { createdAt: { column: 'imports.created_at' }, filename: { column: 'imports.filename' } },
  { column: 'imports.id' },
);

export const IMPORT_LISTING = defineListing({
  filters: { ...projectScope, status: StatusField.optional() },
  sorts: IMPORT_SORTS,
  defaultSort: '-createdAt',
  defaultSays: '-createdAt (newest first)',
});

/** A project's imports, newest first unless `sort` says otherwise. */
export async function listImports(ctx: ActionContext, query: ListingQuery<typeof IMPORT_LISTING>) {
  let qb = ctx.db.selectFrom('imports').selectAll().where('project_id', '=', query.projectId);
  if (query.status) qb = qb.where('status', '=', query.status);
  const { rows, nextCursor } = await IMPORT_LISTING.page(qb, query);
  return { items: await presentImports(ctx.db, rows), nextCursor };
}

/** Refuses an act the import's status does not allow, saying what the import's status is and what to do instead. */
export function assertStatus(row: ImportRow, allowed: readonly ImportStatus[], act: string) {
  if (allowed.includes(row.status)) return;
  const next: Record<ImportStatus, string> = {
    uploaded: 'preview it first (preview_schedule_import)',
    previewed: 'commit it (commit_schedule_import) or cancel it',
    committing: 'it is being applied now; follow its operation (operationId) with get_operation_status',
    committed: 'its lines are in the schedule already; upload the file again to import it afresh',
    canceled: 'upload the file again (upload_import_file) to start over',
    failed: 'its last commit did not finish (see its operation): commit it again, preview it again, or cancel it',
  };
  throw new ServiceError(
    'IMPORT_WRONG_STATE',
    `This import is ${row.status}, so it cannot be ${act}: ${next[row.status]}.`,
    { extra: { status: row.status } },
  );
}
