/**
 * The lines of a document a studio drafts line by line (an estimate's, a purchase order's): found among the document's
 * active lines, changed field by field, removed by archiving. Each write moves the changed line's own version; the
 * document's version is the caller's to move. One piece for every such document, so they refuse and count alike.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';

/** The columns every document-lines table has. */
interface LineColumns {
  id: string;
  archived_at: string | null;
  updated_at: string;
  version: number;
}

/** Where a kind of document keeps its lines, and how a missing one is named to the caller. */
export interface DocumentLinesKind<Row> {
  table: keyof Database & string;
  /** The column naming the document a line belongs to. */
  parentColumn: keyof Row & string;
  /** A patch as the API sends it, as the row's columns (the line record's `patchColumns`). */
  patchColumns(patch: Record<string, unknown>): object;
  /** The NOT_FOUND sentence for a line the document does not have: says where its lines are listed. */
  missing(document: { number: number }, lineId: string): string;
}

// The generic table defeats the query builder's inference; every lines table has LineColumns and its parent column.
const untyped = (db: Kysely<Database>) =>
  db as unknown as Kysely<Record<string, LineColumns & Record<string, unknown>>>;

/** Each named line among the document's active lines, in the order named; NOT_FOUND naming the first missing. */
export async function documentLines<Row>(
  ctx: Pick<ActionContext, 'db'>,
  kind: DocumentLinesKind<Row>,
  document: { id: string; number: number },
  ids: readonly string[],
): Promise<Row[]> {
  const rows = ids.length
    ? await untyped(ctx.db).selectFrom(kind.table).selectAll().where('id', 'in', ids).execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row || row[kind.parentColumn] !== document.id || row.archived_at) {
      throw new ServiceError('NOT_FOUND', kind.missing(document, id));
    }
    return row as unknown as Row;
  });
}

/**
 * Changes what the document says about some of its lines: `patches` pairs each line's id with the fields sent; a
 * line whose patch holds nothing is left alone, each changed line's version goes up.
 */
export async function patchDocumentLines<Row>(
  ctx: ActionContext,
  kind: DocumentLinesKind<Row>,
  document: { id: string; number: number },
  patches: ReadonlyArray<{ id: string; patch: Record<string, unknown> }>,
) {
  await documentLines(
    ctx,
    kind,
    document,
    patches.map((p) => p.id),
  );
  for (const { id, patch } of patches) {
    const cols = kind.patchColumns(patch);
    if (!Object.keys(cols).length) continue;
    await untyped(ctx.db)
      .updateTable(kind.table)
      .set((eb) => ({ ...cols, updated_at: ctx.now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }
}

/** Removes lines from the document: archived, never deleted (an issued revision may name them). */
export async function archiveDocumentLines<Row>(
  ctx: ActionContext,
  kind: DocumentLinesKind<Row>,
  document: { id: string; number: number },
  ids: readonly string[],
): Promise<Row[]> {
  const rows = await documentLines(ctx, kind, document, ids);
  if (!ids.length) return rows;
  await untyped(ctx.db)
    .updateTable(kind.table)
    .set((eb) => ({ archived_at: ctx.now, updated_at: ctx.now, version: eb('version', '+', 1) }))
    .where('id', 'in', [...ids])
    .execute();
  return rows;
}
