import type { RowReader } from '../../db/store.js';
import type { Caller } from './context.js';
import { ServiceError } from './errors.js';
import type { ResolvedRef } from './guards.js';
import type { StudioPermission } from './permissions.js';

/**
 * A permission an action needs beyond its `scope` for some of the records it may name, declared on the action and
 * enforced by `invoke` with the scope, never in a handler: download_document needs pricing:read for a purchase order
 * (its file carries trade prices and cannot be redacted as a response is), and only documents:read for the rest.
 */
export interface RecordScopes {
  /** The input field naming the record (a reference, so `invoke` has already proved it is the caller's). */
  field: string;
  /** The record's column whose value decides (a column name, never input). */
  column: string;
  /**
   * Per value of that column: the permission it needs, and the end of the refusal's sentence after "<Record> <id> ",
   * saying what to do ("… needs pricing:read (ask a studio admin).").
   */
  needs: Readonly<Record<string, { scope: StudioPermission; refusal: string }>>;
}

const COLUMN = /^[a-z_]+$/;

/** Refuses, FORBIDDEN, a record whose declared value needs a permission the caller lacks; else does nothing. */
export async function checkRecordScopes(
  declared: RecordScopes | undefined,
  caller: Caller,
  refs: readonly ResolvedRef[],
  queryRow: RowReader,
): Promise<void> {
  if (!declared) return;
  if (!COLUMN.test(declared.column)) throw new Error(`recordScopes: ${declared.column} is not a column name.`);
  const missing = Object.values(declared.needs).some(({ scope }) => !caller.permissions.has(scope));
  // A caller holding every permission the declaration names is never refused: nothing more to read.
  if (!missing) return;
  for (const ref of refs.filter((r) => r.field === declared.field)) {
    const value =
      declared.column in ref.row
        ? ref.row[declared.column]
        : (
            await queryRow<Record<string, unknown>>(
              `SELECT ${declared.column} FROM ${ref.entity.table} WHERE id = ?`,
              ref.id,
            )
          )?.[declared.column];
    const need = typeof value === 'string' && Object.hasOwn(declared.needs, value) ? declared.needs[value] : undefined;
    if (need && !caller.permissions.has(need.scope)) {
      const name = ref.entity.name.charAt(0).toUpperCase() + ref.entity.name.slice(1);
      throw new ServiceError('FORBIDDEN', `${name} ${ref.id} ${need.refusal}`);
    }
  }
}
