import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { inProject } from '../kit/in-project.js';
import { SECTION_RECORD, type SectionRow } from './record.js';

/**
 * A section's row: how a new one starts, how it is presented, loaded, guarded and written. A project's representation
 * embeds its sections, so every section write also moves the project's version on (`touchProject`).
 */

/** A new, active section row at version 1. */
export const newSectionRow = (projectId: string, title: string, position: number, now: string): SectionRow =>
  SECTION_RECORD.newRow({ title, position }, { id: newId(), ownerId: projectId, now });

export async function loadSection(db: Kysely<Database>, projectId: string, sectionId: string): Promise<SectionRow> {
  const row = await inProject(db, 'sections', projectId, sectionId);
  if (!row) throw new ServiceError('NOT_FOUND', `No section ${sectionId} exists in this project.`);
  return row;
}

export async function activeLineCount(db: Kysely<Database>, sectionId: string): Promise<number> {
  const r = await db
    .selectFrom('lines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('section_id', '=', sectionId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function assertSectionActive(row: SectionRow) {
  if (row.archived_at)
    throw new ServiceError('ARCHIVED', 'This section is archived; archived sections cannot be changed.');
}

/** Bumps a project's version without other changes: its sections changed, so its representation did too. */
export async function touchProject(ctx: ActionContext, projectId: string) {
  await ctx.db
    .updateTable('projects')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: ctx.now }))
    .where('id', '=', projectId)
    .execute();
}

/** Writes section columns, bumps its version (and the project's, whose representation embeds sections), records it. */
export async function writeSection(ctx: ActionContext, before: SectionRow, cols: Partial<SectionRow>, verb: string) {
  const count = await activeLineCount(ctx.db, before.id);
  const shown = await versionedUpdate(ctx, 'sections', before, cols, {
    present: (row) => SECTION_RECORD.present(row, { lineCount: count }),
    audit: (after) => ({
      targetKind: 'section',
      projectId: before.project_id,
      summary: `${verb} section ${after.title}`,
    }),
  });
  await touchProject(ctx, before.project_id);
  return shown;
}
