import { z } from 'zod';
import { LineFields } from '../schedule/records.js';
import { UnitId } from '../shared/refs.js';
import { Id, LineStatus, named, Quantity, QuantityAmount4, Timestamp } from '../../src/core/values.js';

/** A starting line as callers send it: what a new project's line begins with; no prices, no supplier. */
export const TemplateLineInput = z.strictObject({
  heading: LineFields.shape.heading,
  description: LineFields.shape.description.optional(),
  quantity: z
    .strictObject({ amount4: QuantityAmount4, unitId: UnitId.optional() })
    .optional()
    .describe("Default 1; unitId defaults to the studio's default unit."),
  status: LineStatus.optional().describe('The status a line made from it starts in; default draft.'),
});

export const TemplateSectionInput = z.strictObject({
  title: z.string().trim().min(1).max(200).describe('As a section title, e.g. "Main Bedroom".'),
  lines: z.array(TemplateLineInput).max(2000).optional().describe('Starting lines in order; default none.'),
});

/** What a studio edits on a template; sections are always sent whole (they replace the template's). */
export const TemplateFields = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('What kind of job it starts, e.g. "Three-bedroom house".'),
  description: z.string().max(2000).describe('When to start from it.'),
  sections: z
    .array(TemplateSectionInput)
    .min(1)
    .max(100)
    .describe('Sections in order, each with its starting lines; the whole list (an update replaces it).'),
});

const TemplateLine = z.strictObject({
  heading: z.string(),
  description: z.string(),
  quantity: Quantity,
  status: LineStatus,
});

const TemplateSection = z.strictObject({ title: z.string(), lines: z.array(TemplateLine) });

const templateFields = {
  id: Id,
  name: z.string(),
  description: z.string(),
  sectionCount: z.int().min(0),
  lineCount: z.int().min(0).describe('Starting lines across all sections.'),
  version: z.int().min(1),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  archived_at: Timestamp.nullable().describe('Set when archived; templates are never deleted.'),
};

export const ProjectTemplate = z
  .strictObject({
    ...templateFields,
    sections: z.array(TemplateSection).describe('In order, each with its starting lines in order.'),
  })
  .describe('A project template: the sections and starting lines (no prices) a new project can begin with.');
named(ProjectTemplate, 'ProjectTemplate');

export const ProjectTemplateSummary = z
  .strictObject({ ...templateFields, sectionTitles: z.array(z.string()).describe('Its sections, in order.') })
  .describe('A project template in a list: get_project_template gives its starting lines.');
named(ProjectTemplateSummary, 'ProjectTemplateSummary');
