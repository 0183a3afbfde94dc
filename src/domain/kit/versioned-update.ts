import type { Selectable, Updateable } from 'kysely';
import { updateVersioned } from '../../../db/compiled-shape.js';
import type { Database } from '../../../db/schema.js';
import type { ActionContext, AuditInput } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { diffPresented } from './diff-presented.js';

interface Versioned {
  id: string;
  version: number;
  updated_at: string;
}

/** The tables whose rows carry an id, a version and updated_at. */
export type VersionedTable = {
  [T in keyof Database]: Selectable<Database[T]> extends Versioned ? T : never;
}[keyof Database];

type Row<T extends VersionedTable> = Selectable<Database[T]>;

export interface VersionedUpdateOptions<T extends VersionedTable, Shown> {
  /** The record's API shape: the answer, and (before against after) the audit event's `changes`. */
  present: (row: Row<T>) => Shown | Promise<Shown>;
  /** The audit event for the change; its target is the record unless it says otherwise. None: the caller audits. */
  audit?: (after: Row<T>) => Omit<AuditInput, 'targetId' | 'changes'> & { targetId?: string };
  /**
   * Changes already written beside the record in the same transaction (a line's custom property values), in API
   * terms: they make the write a change even when no column differs, and join the audit event's `changes`.
   */
  beside?: Record<string, { from: unknown; to: unknown }>;
  /** The conflict sentence, when the record has a more precise one than the catalog's. */
  conflict?: string;
}

/**
 * Writes columns to a loaded row `WHERE id = ? AND version = ?`, bumping its version and updated_at: a lost race is
 * VERSION_CONFLICT, never a silent overwrite. Answers the presented after-row and records what changed, in API terms;
 * a write that changes nothing is no write at all.
 */
export async function versionedUpdate<T extends VersionedTable, Shown extends Record<string, unknown>>(
  ctx: Pick<ActionContext, 'db' | 'now' | 'audit' | 'unchanged' | 'later'>,
  table: T,
  before: Row<T> & Versioned,
  cols: Updateable<Database[T]>,
  options: VersionedUpdateOptions<T, Shown>,
): Promise<Shown> {
  const unchangedShown = await options.present(before);
  const bump = { updated_at: ctx.now, version: before.version + 1 };
  const after = { ...before, ...cols, ...bump } as Row<T>;
  const shown = await options.present(after);
  // The bump shows only as version and updatedAt, which a diff leaves out: what the API shows changed, or nothing did.
  const changes = { ...diffPresented(unchangedShown, shown), ...options.beside };
  // A write that changes nothing the API shows (the same values sent again) leaves version, updatedAt and the audit
  // feed as they were. No columns at all is a deliberate touch: something the record shows changed elsewhere.
  if (Object.keys(cols).length && !Object.keys(changes).length) {
    ctx.unchanged();
    return unchangedShown;
  }
  const update = updateVersioned(ctx.db, table, { ...cols, ...bump }, before.id, before.version);
  const lostRace = () => new ServiceError('VERSION_CONFLICT', options.conflict);
  // In a write the UPDATE is sent without waiting (it leaves with the audit event, one round trip on PostgreSQL): the
  // answer is the after-row built here, and a lost race still fails the write, when the group commit checks it.
  if (ctx.later) {
    ctx.later(update, (rows) => {
      if (rows !== 1) throw lostRace();
    });
  } else if ((await ctx.db.executeQuery(update)).numAffectedRows !== 1n) throw lostRace();
  if (options.audit) ctx.audit({ targetId: before.id, ...options.audit(after), changes });
  return shown;
}
