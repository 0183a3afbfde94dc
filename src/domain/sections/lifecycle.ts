import { SECTION_RECORD } from './record.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { activeLinesOf, copyLines } from '../schedule/copy.js';
import { activeOrderOf, insertSection, renumberSections } from './order.js';
import { activeLineCount, assertSectionActive, loadSection, touchProject, writeSection } from './section-record.js';

/**
 * Archives an empty section. A section that still holds active lines is refused with SECTION_NOT_EMPTY rather than
 * archiving its lines along with it: archiving a line is visible to the client (it shows as a removed piece), so each
 * line's archival or move should be a deliberate act, not a side effect of tidying sections.
 */
export async function archiveSection(ctx: ActionContext, projectId: string, sectionId: string) {
  const before = await loadSection(ctx.db, projectId, sectionId);
  if (before.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This section is already archived.');
  const n = await activeLineCount(ctx.db, sectionId);
  if (n > 0) {
    throw new ServiceError(
      'SECTION_NOT_EMPTY',
      `This section still holds ${n} active line${n === 1 ? '' : 's'}; move or archive ${n === 1 ? 'it' : 'them'} first, then archive the section.`,
      {
        extra: { activeLines: n },
      },
    );
  }
  const shown = await writeSection(ctx, before, { archived_at: ctx.now }, 'Archived');
  const order = (await activeOrderOf(ctx.db, projectId)).filter((id) => id !== sectionId);
  await renumberSections(ctx.db, projectId, order);
  const after = await loadSection(ctx.db, projectId, sectionId);
  return { ...shown, position: after.position };
}

/** Copies a section and its active lines, placing the copy right after the source; copies get fresh codes. */
export async function duplicateSection(ctx: ActionContext, projectId: string, sectionId: string, title?: string) {
  const source = await loadSection(ctx.db, projectId, sectionId);
  assertSectionActive(source);
  // Right after the source among the active sections (its rank, not its raw position, names the slot).
  const rank = (await activeOrderOf(ctx.db, projectId)).indexOf(sectionId) + 1;
  const row = await insertSection(ctx, projectId, title ?? `${source.title} (copy)`, rank + 1);
  const copies = await copyLines(
    ctx,
    await activeLinesOf(ctx.db, sectionId),
    { projectId, sectionId: row.id },
    'fresh',
  );
  await touchProject(ctx, projectId);
  ctx.audit({
    targetKind: 'section',
    targetId: row.id,
    projectId,
    summary: `Duplicated section ${source.title} as ${row.title}`,
    changes: { duplicatedFrom: { from: null, to: source.id }, lineCount: { from: null, to: copies.length } },
  });
  return SECTION_RECORD.present(row, { lineCount: copies.length });
}
