import type { Generated, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { versionedUpdate, type VersionedUpdateOptions } from '../kit/versioned-update.js';

/** A studio: its name and its settings (presentSettings), one row and one version for both. */
export interface StudiosTable {
  id: string;
  name: string;
  currency: Currency;
  default_markup4: string;
  default_unit_id: string | null;
  code_prefix: string;
  /** Scale-4 ratio string ("2000" = 20%); '0' by default. */
  tax_rate4: Generated<string>;
  /** Null: documents show the studio's name. */
  brand_display_name: string | null;
  /** `#rrggbb`, lowercase; '#1f2937' by default. */
  brand_accent_colour: Generated<string>;
  brand_logo_text: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}
export type StudioRow = Selectable<StudiosTable>;
export type StudioUpdate = Updateable<StudiosTable>;
declare module '../../../db/schema.js' {
  interface Database {
    studios: StudiosTable;
  }
}

/** The caller's studio row. A token acts in exactly one studio, so there is never a studio id to check. */
export async function loadStudio(db: Kysely<Database>, studioId: string): Promise<StudioRow> {
  const row = await db.selectFrom('studios').selectAll().where('id', '=', studioId).executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', 'Your studio no longer exists.');
  return row;
}

/** The one active owner: the studio must always have exactly one. */
export async function ownerOf(db: Kysely<Database>, studioId: string) {
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['members.id as memberId', 'users.name as name'])
    .where('members.studio_id', '=', studioId)
    .where('members.role', '=', 'owner')
    .where('members.removed_at', 'is', null)
    .orderBy('members.created_at')
    .executeTakeFirst();
}

export async function presentStudio(db: Kysely<Database>, row: StudioRow) {
  const owner = await ownerOf(db, row.id);
  return {
    id: row.id,
    name: row.name,
    owner: owner ? { memberId: owner.memberId, name: owner.name } : null,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function getStudio(ctx: ActionContext) {
  return presentStudio(ctx.db, await loadStudio(ctx.db, ctx.studioId));
}

/**
 * Writes studio columns and bumps the studio's version: its record and its settings share one version, so any change
 * to either is a conflict for a writer holding an older read. The `version` guard makes a lost race a conflict too.
 */
export function writeStudio<Shown extends Record<string, unknown>>(
  ctx: ActionContext,
  before: StudioRow,
  cols: StudioUpdate,
  options: Omit<VersionedUpdateOptions<'studios', Shown>, 'conflict'>,
): Promise<Shown> {
  return versionedUpdate(ctx, 'studios', before, cols, {
    ...options,
    conflict: 'The studio changed while this request ran; read it again and reapply your change.',
  });
}

export async function updateStudio(ctx: ActionContext, patch: { name: string }) {
  return writeStudio(ctx, await loadStudio(ctx.db, ctx.studioId), patch, {
    present: (row) => presentStudio(ctx.db, row),
    audit: (after) => ({ targetKind: 'studio', summary: `Renamed the studio to ${after.name}` }),
  });
}
