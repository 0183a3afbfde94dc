import type { LineRow } from '../schedule/record.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { codeAllocator } from '../schedule/codes.js';
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
      const row: LineRow = {
        id: newId(),
        project_id: projectId,
        section_id: sectionRow.id,
        position: j + 1,
        code: code(),
        heading: line.heading,
        description: line.description,
        status: line.status,
        supplier_id: null,
        brand: null,
        product_code: null,
        url: null,
        finish: null,
        dimensions: null,
        lead_time_days: null,
        quantity4: line.quantity.amount4,
        unit_id: line.quantity.unitId,
        markup4: null,
        trade_state: 'tbc',
        trade4: null,
        retail_state: 'tbc',
        retail4: null,
        client_state: null,
        client4: null,
        delivery_state: 'tbc',
        delivery4: null,
        created_at: ctx.now,
        updated_at: ctx.now,
        archived_at: null,
        version: 1,
      };
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
