import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Section } from './records.js';
import * as sections from '../../src/domain/sections/lifecycle.js';
import { EXAMPLE } from '../projects/shapes.js';
import { SectionTitle } from '../../src/domain/sections/record.js';
import { ProjectId, SectionId } from '../shared/refs.js';
import { SECTION } from '../../src/domain/sections/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';

const inSection = { projectId: ProjectId, sectionId: SectionId };

export const archiveScheduleSection = defineAction({
  name: 'archive_schedule_section',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'sections',
  summary: 'Archive an empty section.',
  description:
    "Archives the section; it leaves the project's section list and later sections move up. Only an empty section can be archived: one that still holds active lines is refused with SECTION_NOT_EMPTY, because archiving a line shows it to the client as removed and should be done on purpose (move or archive the lines first). Needs expectedVersion; a second archival is refused with ALREADY_ARCHIVED.",
  intents: ['remove a room', 'delete a section', 'take a room off the schedule'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: SECTION, idField: 'sectionId' },
  input: z.strictObject(inSection),
  output: Section,
  errors: ['NOT_FOUND', 'ARCHIVED', 'ALREADY_ARCHIVED', 'SECTION_NOT_EMPTY'],
  example: { projectId: EXAMPLE.projectId, sectionId: EXAMPLE.sectionId, expectedVersion: 2 },
  handler: (ctx, input) => sections.archiveSection(ctx, input.projectId, input.sectionId),
});

export const duplicateScheduleSection = defineAction({
  name: 'duplicate_schedule_section',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'sections',
  summary: 'Copy a section with its active lines, right after it.',
  description:
    'Creates a new section directly after the source with copies of its active lines (new ids, version 1, the next free codes, same order). Title defaults to "<source title> (copy)". Send a fresh commandKey so a retry never copies twice.',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({ ...inSection, title: SectionTitle.optional() }),
  output: Section,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    sectionId: EXAMPLE.sectionId,
    title: 'Guest Bedroom 2',
    commandKey: '7c1d9e42-5b3a-4f6e-a0d8-2e9b4c6f1a35',
  },
  handler: (ctx, input) => sections.duplicateSection(ctx, input.projectId, input.sectionId, input.title),
});
