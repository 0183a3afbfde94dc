import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { codeAllocator } from '../schedule/codes.js';
import { LINE_RECORD } from '../schedule/record.js';
import { newLineRow } from '../schedule/line-record.js';
import { newSectionRow } from '../sections/section-record.js';
import { sectionsOf } from './record.js';
import { loadTemplate } from './template-record.js';

/**
 * Gives a new project a template's sections in order, each with its starting lines: new lines at version 1 with the
 * project's next codes (the normal allocator), prices to be confirmed, no supplier. Each line's creation is audited.
 * `invoke` has proved the template is the caller's studio's; an archived one is refused.
 */
export async function startFromTemplate(ctx: ActionContext, projectId: string, templateId: string) {
  const template = await loadTemplate(ctx, templateId);
  if (template.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      `The template ${template.name} is archived; choose an active one (list_project_templates).`,
    );
  }
  for (const [i, section] of sectionsOf(template).entries()) {
    const sectionRow = newSectionRow(projectId, section.title, i + 1, ctx.now);
    await ctx.db.insertInto('sections').values(sectionRow).execute();
    // Each section numbers with the code scheme its title takes (LT in a Lighting section), after the lines before it.
    const code = await codeAllocator(ctx.db, ctx.studioId, projectId, sectionRow.id);
    for (const [j, line] of section.lines.entries()) {
      const { heading, description, status, quantity } = line;
      const row = newLineRow(
        { project_id: projectId, section_id: sectionRow.id, position: j + 1, code: code() },
        { ...LINE_RECORD.patchColumns({ description, status, quantity }), heading },
        quantity.unitId,
        ctx.now,
      );
      await ctx.db.insertInto('lines').values(row).execute();
      ctx.audit({
        targetKind: 'line',
        targetId: row.id,
        projectId,
        summary: `Created line ${row.code} ${row.heading} from template ${template.name}`,
        changes: { created: { from: null, to: row.heading } },
      });
    }
  }
  return template;
}
