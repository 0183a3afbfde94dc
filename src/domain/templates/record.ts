import { z } from 'zod';
import { refTo } from '../../core/schema-marks.js';
import { Id, LineStatus, Quantity, QuantityAmount4 } from '../../core/values.js';
import { type Codec, defineRecord, field, type TableOf } from '../kit/record.js';
import { UNIT } from '../units/entity.js';

/** At most this many sections and starting lines in one template, so a project starts from it in one quick write. */
export const TEMPLATE_MAX_SECTIONS = 100;
export const TEMPLATE_MAX_LINES = 2000;

/** A starting line as callers send it: what a new project's line begins with; no prices, no supplier. */
export const TemplateLineInput = z.strictObject({
  heading: z.string().min(1).max(500),
  description: z.string().max(20_000).optional(),
  quantity: z
    .strictObject({ amount4: QuantityAmount4, unitId: refTo(Id, UNIT).optional() })
    .optional()
    .describe("Default 1; unitId defaults to the studio's default unit."),
  status: LineStatus.optional().describe('The status a line made from it starts in; default draft.'),
});

export const TemplateSectionInput = z.strictObject({
  title: z.string().trim().min(1).max(200).describe('As a section title, e.g. "Main Bedroom".'),
  lines: z
    .array(TemplateLineInput)
    .max(TEMPLATE_MAX_LINES)
    .optional()
    .describe('Starting lines in order; default none.'),
});
export type TemplateSectionInput = z.output<typeof TemplateSectionInput>;

/** A starting line of a template section, complete: a line made from it starts as `status`. */
const TemplateLine = z.strictObject({
  heading: z.string(),
  description: z.string(),
  quantity: Quantity,
  status: LineStatus,
});
export type TemplateLine = z.output<typeof TemplateLine>;

/** A section of a template with its starting lines, in order. */
const TemplateSection = z.strictObject({ title: z.string(), lines: z.array(TemplateLine) });
export type TemplateSection = z.output<typeof TemplateSection>;

/**
 * The sections as stored, JSON text: only the fields a template keeps, in a fixed order, so equal sections store equal
 * text. What is stored is complete (every default filled in), as the API answers it.
 */
const asSectionsJson: Codec<TemplateSection[], string> = {
  toColumn: (sections) =>
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
    ),
  fromColumn: (text) => JSON.parse(text) as TemplateSection[],
};

/**
 * A project template: a starting point for new projects. Callers send sections with their lines' defaults left out;
 * the domain completes them (./templates.ts) before they are stored, and the API answers them complete.
 */
export const TEMPLATE_RECORD = defineRecord({
  name: 'ProjectTemplate',
  description: 'A project template: the sections and starting lines (no prices) a new project can begin with.',
  table: 'project_templates',
  owner: 'studio',
  archivable: true,
  archivedMeans: 'Set when archived; templates are never deleted.',
  fields: {
    name: field(z.string().trim().min(1).max(200).describe('What kind of job it starts, e.g. "Three-bedroom house".'), {
      write: 'always',
      required: true,
    }),
    description: field(z.string().max(2000).describe('When to start from it.'), { write: 'always', default: '' }),
    sections: field(
      z
        .array(TemplateSectionInput)
        .min(1)
        .max(TEMPLATE_MAX_SECTIONS)
        .describe('Sections in order, each with its starting lines; the whole list (an update replaces it).'),
      {
        write: 'always',
        required: true,
        column: 'sections_json',
        codec: asSectionsJson,
        output: z.array(TemplateSection).describe('In order, each with its starting lines in order.'),
      },
    ),
  },
  computed: {
    sectionCount: z.int().min(0),
    lineCount: z.int().min(0).describe('Starting lines across all sections.'),
  },
  // As published before the record was declared: the sections last (a list's summary answers their titles there).
  order: [
    'id',
    'name',
    'description',
    'sectionCount',
    'lineCount',
    'version',
    'createdAt',
    'updatedAt',
    'archived_at',
    'sections',
  ],
});

export type ProjectTemplateRow = TableOf<typeof TEMPLATE_RECORD>;

/** The sections kept in a row. */
export const sectionsOf = (row: Pick<ProjectTemplateRow, 'sections_json'>): TemplateSection[] =>
  asSectionsJson.fromColumn(row.sections_json);

declare module '../../../db/schema.js' {
  interface Database {
    project_templates: ProjectTemplateRow;
  }
}
