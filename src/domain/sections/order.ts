import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { SectionRow } from './record.js';
import type { ActionContext } from '../../core/context.js';
import { assertFullOrder } from '../kit/full-order.js';
import { newSectionRow, touchProject } from './section-record.js';

/**
 * Writes section positions so that the active sections run 1..n in `activeOrder`, and archived ones follow after them
 * (n+1 …) in their existing order: positions stay unique across the project, so document order (section position, then
 * line position) is total even when archived lines are listed. Positions are ordering, not content: as with lines, a
 * neighbour's shifted position does not bump its version. Only rows whose position changes are written.
 */
export async function renumberSections(db: Kysely<Database>, projectId: string, activeOrder: readonly string[]) {
  const all = await db
    .selectFrom('sections')
    .select(['id', 'position', 'archived_at'])
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const archived = all.filter((s) => s.archived_at !== null).map((s) => s.id);
  const current = new Map(all.map((s) => [s.id, s.position]));
  for (const [i, id] of [...activeOrder, ...archived].entries()) {
    if (current.get(id) !== i + 1)
      await db
        .updateTable('sections')
        .set({ position: i + 1 })
        .where('id', '=', id)
        .execute();
  }
}

/** The ids of a project's active sections, in order. */
export async function activeOrderOf(db: Kysely<Database>, projectId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('sections')
    .select('id')
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Inserts a new section row at a 1-based position among the active sections (default: last) and renumbers. */
export async function insertSection(
  ctx: ActionContext,
  projectId: string,
  title: string,
  position: number | undefined,
): Promise<SectionRow> {
  const order = await activeOrderOf(ctx.db, projectId);
  const at = Math.min(Math.max(position ?? order.length + 1, 1), order.length + 1);
  const row = newSectionRow(projectId, title, 0, ctx.now);
  await ctx.db.insertInto('sections').values(row).execute();
  order.splice(at - 1, 0, row.id);
  await renumberSections(ctx.db, projectId, order);
  return { ...row, position: at };
}

/**
 * Puts the project's active sections in the given order. The list must name every active section exactly once and
 * nothing else, so a caller working from a stale list is refused rather than half-applied. The expected version
 * checked by `invoke` is the project's; the project's version goes up by one.
 */
export async function reorderSections(ctx: ActionContext, projectId: string, sectionIds: readonly string[]) {
  const active = await activeOrderOf(ctx.db, projectId);
  assertFullOrder(sectionIds, active, 'sectionIds', 'section', 'read the project again for the current list');
  await renumberSections(ctx.db, projectId, sectionIds);
  await touchProject(ctx, projectId);
  ctx.audit({
    targetKind: 'project',
    targetId: projectId,
    projectId,
    summary: 'Reordered sections',
    changes: { sectionOrder: { from: active, to: [...sectionIds] } },
  });
}
