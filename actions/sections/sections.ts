import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import { Section } from './records.js';
import * as sections from '../../src/domain/sections/sections.js';
import { EXAMPLE } from '../projects/shapes.js';
import { SectionTitle } from '../../src/domain/sections/record.js';
import { ProjectId, SectionId } from '../shared/refs.js';
import { SECTION } from '../../src/domain/sections/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';

const inSection = { projectId: ProjectId, sectionId: SectionId };

export const listScheduleSections = defineAction({
  name: 'list_schedule_sections',
  kind: 'procedure',
  effect: 'query',
  domain: 'sections',
  summary: "List a project's sections in order.",
  description:
    "The project's sections in document order, each with its count of active lines. Archived sections are excluded by default; with archived: include they follow the active ones. Pass nextCursor back as cursor for the next page.",
  scope: 'projects:read',
  input: sections.SECTION_LISTING.input,
  output: page(Section),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => sections.listSectionsPage(ctx, input),
});

export const getScheduleSection = defineAction({
  name: 'get_schedule_section',
  kind: 'procedure',
  effect: 'query',
  domain: 'sections',
  summary: 'Read one section with its version.',
  description:
    'Returns the section, archived or not, with its count of active lines. Keep its version: changes to the section send it back as expectedVersion.',
  scope: 'projects:read',
  input: z.strictObject(inSection),
  output: Section,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, sectionId: EXAMPLE.sectionId },
  handler: (ctx, input) => sections.getSection(ctx, input.projectId, input.sectionId),
});

export const createScheduleSection = defineAction({
  name: 'create_schedule_section',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'sections',
  summary: 'Add a section (usually a room) to a project.',
  description:
    "Creates an empty section at a 1-based position among the project's active sections (default: last); later sections move down one. The project's version goes up. Send a fresh commandKey so a retry never adds it twice.",
  intents: ['add a room', 'add a new area to the schedule', 'create a section'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({
    projectId: ProjectId,
    title: SectionTitle,
    position: z.int().min(1).max(10_000).optional().describe('1-based; default last.'),
  }),
  output: Section,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, title: 'Utility Room', commandKey: '3a6e1f0b-9c2d-4e7a-8b15-6d4c2f9e0a71' },
  handler: (ctx, input) => sections.createSection(ctx, input.projectId, input.title, input.position),
});

export const updateScheduleSection = defineAction({
  name: 'update_schedule_section',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'sections',
  summary: 'Rename a section.',
  description:
    "Changes the section's title. Needs expectedVersion from your last read of the section; on VERSION_CONFLICT read it again and report. The project's version goes up too, since the project shows its sections. Use reorder_schedule_sections to change the order.",
  intents: ['rename a room', "change a section's title", 'edit a room'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: SECTION, idField: 'sectionId' },
  input: z.strictObject({ ...inSection, title: SectionTitle.optional() }),
  output: Section,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, sectionId: EXAMPLE.sectionId, expectedVersion: 2, title: 'Snug' },
  handler: (ctx, { projectId, sectionId, ...patch }) => sections.updateSection(ctx, projectId, sectionId, patch),
});
