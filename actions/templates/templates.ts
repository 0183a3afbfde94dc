import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { TEMPLATE } from '../../src/domain/templates/entity.js';
import * as templates from '../../src/domain/templates/templates.js';
import { ProjectId, TemplateId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { TEMPLATE_RECORD } from '../../src/domain/templates/record.js';
import { ProjectTemplate, ProjectTemplateSummary } from './records.js';

/** Fake ids for examples: the shape the API mints, no meaning. */
const EX = { templateId: '0000000000000000000000000t', projectId: '0000000000000000000000000a' } as const;
const inTemplate = { templateId: TemplateId };

/** How a template is used: there is no separate action for it, by design. */
const TO_START =
  'A new project starts from a template through create_studio_project (or POST /v1/projects, create_project) with its templateId.';

export const listProjectTemplates = defineAction({
  name: 'list_project_templates',
  kind: 'procedure',
  effect: 'query',
  domain: 'templates',
  summary: "List the studio's project templates, by name.",
  description: `The studio's project templates (starting points for new projects: sections with starting lines) in name order (or sort by createdAt; '-' for descending), each with its section titles and counts. Find one by a piece of its name or description with q; archived templates are left out unless archived is include or only. get_project_template shows a template's starting lines. ${TO_START}`,
  scope: 'reference:read',
  input: templates.TEMPLATE_LISTING.input,
  output: page(ProjectTemplateSummary),
  errors: [],
  example: { q: 'house' },
  handler: (ctx, input) => templates.listTemplates(ctx, input),
});

export const getProjectTemplate = defineAction({
  name: 'get_project_template',
  kind: 'procedure',
  effect: 'query',
  domain: 'templates',
  summary: 'Read one project template with its sections and starting lines.',
  description: `The template (archived or not) with its sections in order, each with its starting lines (heading, description, quantity, status; no prices), and its version for update_project_template and archive_project_template. ${TO_START}`,
  scope: 'reference:read',
  input: z.strictObject(inTemplate),
  output: ProjectTemplate,
  errors: ['NOT_FOUND'],
  example: { templateId: EX.templateId },
  handler: (ctx, input) => templates.getTemplate(ctx, input.templateId),
});

export const createProjectTemplate = defineAction({
  name: 'create_project_template',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'templates',
  summary: 'Write a new project template: sections with their starting lines.',
  description: `Creates a template from the sections you send, each with a title and its starting lines (heading required; description, quantity (default 1 of the studio's default unit) and status (default draft); no prices). To capture an existing project as it stands, use create_template_from_project instead. At most 100 sections and 2,000 lines. Send a fresh commandKey so a retry never creates it twice. ${TO_START}`,
  intents: ['make a new template', 'save a standard set of rooms', 'create a starting point for projects'],
  scope: 'reference:write',
  keyed: true,
  input: TEMPLATE_RECORD.createInput,
  output: ProjectTemplate,
  errors: [],
  example: {
    name: 'Three-bedroom house',
    sections: [
      { title: 'Living Room', lines: [{ heading: 'Sofa' }, { heading: 'Armchair', quantity: { amount4: '20000' } }] },
      { title: 'Main Bedroom', lines: [{ heading: 'Bed' }] },
    ],
    commandKey: '9b7e5c3a-1d2f-4e6a-8b0c-4d6e8f0a2c1b',
  },
  handler: (ctx, input) => templates.createTemplate(ctx, input),
});

export const createTemplateFromProject = defineAction({
  name: 'create_template_from_project',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'templates',
  summary: "Save a project's sections and lines as a new project template.",
  description: `Captures the project as it stands: its active sections in order, each with its active lines' headings, descriptions and quantities as starting lines (status draft). Prices, suppliers, codes and archived sections or lines are not captured, and the project does not change (an archived project can be captured too). name defaults to the project's. Prefer it to duplicate_project when the next job should start from the same rooms and items, not the same prices. Send a fresh commandKey so a retry never creates it twice. ${TO_START}`,
  intents: ['turn this project into a template', "reuse this job's rooms next time", 'save a project as a template'],
  scope: 'reference:write',
  keyed: true,
  input: z.strictObject({
    projectId: ProjectId.describe('The project to capture.'),
    name: TEMPLATE_RECORD.createInput.shape.name.optional().describe("The template's name; default the project's."),
    description: TEMPLATE_RECORD.createInput.shape.description,
  }),
  output: ProjectTemplate,
  errors: ['NOT_FOUND'],
  example: {
    projectId: EX.projectId,
    name: 'Coastal family house',
    commandKey: '2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e7a',
  },
  handler: (ctx, { projectId, ...fields }) => templates.createTemplateFromProject(ctx, projectId, fields),
});

export const updateProjectTemplate = defineAction({
  name: 'update_project_template',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'templates',
  summary: 'Rename a project template, or add, remove or reorder its sections and starting lines.',
  description:
    "A merge patch with expectedVersion from your last read: name and description change alone; sections, when sent, replace the template's whole list (read it with get_project_template, edit, send it all back). Projects already started from the template do not change. Archived templates do not change (ARCHIVED).",
  intents: ['add a room to a template', 'change our standard template', 'edit a project template'],
  scope: 'reference:write',
  versioned: { entity: TEMPLATE, idField: 'templateId' },
  input: TEMPLATE_RECORD.patchInput.extend(inTemplate),
  output: ProjectTemplate,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { templateId: EX.templateId, expectedVersion: 2, description: 'Family houses of three bedrooms.' },
  handler: (ctx, { templateId, ...patch }) => templates.updateTemplate(ctx, templateId, patch),
});

export const archiveProjectTemplate = defineAction({
  name: 'archive_project_template',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'templates',
  summary: 'Archive a project template so new projects no longer start from it.',
  description:
    'Archives the template (never deleted): it stays readable, but create_studio_project refuses it (ARCHIVED). Projects already started from it do not change. Needs expectedVersion; a second archival answers ALREADY_ARCHIVED.',
  scope: 'reference:write',
  versioned: { entity: TEMPLATE, idField: 'templateId' },
  input: z.strictObject(inTemplate),
  output: ProjectTemplate,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { templateId: EX.templateId, expectedVersion: 3 },
  handler: (ctx, input) => templates.archiveTemplate(ctx, input.templateId),
});
