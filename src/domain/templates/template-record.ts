import type { ProjectTemplateRow } from '../../../db/schema.js';
import type { LineStatus } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';

/** A starting line of a template section: no prices, no supplier; a line made from it starts as `status`. */
export interface TemplateLine {
  heading: string;
  description: string;
  quantity: { amount4: string; unitId: string };
  status: LineStatus;
}

/** A section of a template with its starting lines, in order. */
export interface TemplateSection {
  title: string;
  lines: TemplateLine[];
}

/** At most this many sections and starting lines in one template, so a project starts from it in one quick write. */
export const TEMPLATE_MAX_SECTIONS = 100;
export const TEMPLATE_MAX_LINES = 2000;

/** The sections kept in a row (JSON text written only by `sectionsJson`). */
export const sectionsOf = (row: Pick<ProjectTemplateRow, 'sections_json'>): TemplateSection[] =>
  JSON.parse(row.sections_json) as TemplateSection[];

/** The sections as stored: only the fields a template keeps, in a fixed order, so equal sections store equal text. */
export const sectionsJson = (sections: readonly TemplateSection[]) =>
  JSON.stringify(
    sections.map((s) => ({
      title: s.title,
      lines: s.lines.map((l) => ({
        heading: l.heading,
        description: l.description,
        quantity: { amount4: l.quantity.amount4, unitId: l.quantity.unitId },
        status: l.status,
      })),
    })),
  );

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
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    sections,
    sectionCount: sections.length,
    lineCount: countLines(sections),
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archived_at: row.archived_at,
  };
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
