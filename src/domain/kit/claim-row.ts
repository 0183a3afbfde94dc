import type { Kysely, Updateable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import type { VersionedTable } from './versioned-update.js';

/**
 * Writes a record's state columns only if it is still at the version it was read at, bumping it: two acts racing for
 * one document (an issue and a cancel, two deliveries, from two processes too) cannot both go ahead; the loser is
 * VERSION_CONFLICT with `conflict` as its sentence, never a half-write.
 */
export async function claimRow<T extends VersionedTable>(
  ctx: Pick<ActionContext, 'db' | 'now'>,
  table: T,
  row: { id: string; version: number },
  cols: Updateable<Database[T]>,
  conflict: string,
) {
  // The generic table defeats the query builder's inference; every versioned table has these columns.
  const db = ctx.db as unknown as Kysely<Record<string, { id: string; version: number; updated_at: string }>>;
  const done = await db
    .updateTable(table as string)
    .set({ ...(cols as object), updated_at: ctx.now, version: row.version + 1 })
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst();
  if (done.numUpdatedRows !== 1n) throw new ServiceError('VERSION_CONFLICT', conflict);
}
