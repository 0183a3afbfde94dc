import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import {
  type ProjectTemplateRow,
  sectionsOf,
  TEMPLATE_MAX_LINES,
  TEMPLATE_MAX_SECTIONS,
  TEMPLATE_RECORD,
  type TemplateSection,
} from './record.js';

const countLines = (sections: readonly TemplateSection[]) => sections.reduce((n, s) => n + s.lines.length, 0);

/** Refuses sections beyond the limits, naming them and what to do. */
export function assertWithinLimits(sections: readonly TemplateSection[], path = 'sections') {
  const lines = countLines(sections);
  if (sections.length > TEMPLATE_MAX_SECTIONS || lines > TEMPLATE_MAX_LINES) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `A template holds at most ${TEMPLATE_MAX_SECTIONS} sections and ${TEMPLATE_MAX_LINES} starting lines (this has ${sections.length} and ${lines}); keep the lines a new project really starts with.`,
      { errors: [{ path, message: 'Too many sections or lines for one template.' }] },
    );
  }
}

/** A template as the API shows it, with its sections and their starting lines. */
export function presentTemplate(row: ProjectTemplateRow) {
  const sections = sectionsOf(row);
  return TEMPLATE_RECORD.present(row, { sectionCount: sections.length, lineCount: countLines(sections) });
}
export type PresentedTemplate = ReturnType<typeof presentTemplate>;

/** A template in a list: its section titles and counts, without the starting lines (get_project_template has them). */
export function presentTemplateSummary(row: ProjectTemplateRow) {
  const { sections, ...rest } = presentTemplate(row);
  return { ...rest, sectionTitles: sections.map((s) => s.title) };
}

/** A template of the caller's studio; NOT_FOUND otherwise. */
export async function loadTemplate(
  ctx: Pick<ActionContext, 'db' | 'studioId'>,
  templateId: string,
): Promise<ProjectTemplateRow> {
  const row = await ctx.db
    .selectFrom('project_templates')
    .selectAll()
    .where('id', '=', templateId)
    .where('studio_id', '=', ctx.studioId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No project template ${templateId} exists in your studio.`);
  return row;
}
