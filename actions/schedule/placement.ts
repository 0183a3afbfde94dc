import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Line } from './records.js';
import * as lines from '../../src/domain/schedule/lines.js';
import { copyLinesToProject, COPY_MAX } from '../../src/domain/schedule/copy.js';
import { EXAMPLE, inLine } from './shapes.js';
import { LineId, ProjectId, SectionId, TargetSectionId } from '../shared/refs.js';
import { LINE } from '../../src/domain/schedule/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';

export const moveScheduleLine = defineAction({
  name: 'move_schedule_line',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Move a line within its section or to another section.',
  description:
    'Places the line at a 1-based position in the target section of the same project (default: last); other lines close up or make room. Needs expectedVersion. To put lines in another project, use copy_schedule_lines_to_project.',
  intents: ['move a piece to another room', 'put the chair in the bedroom instead', 'change which room an item is in'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: LINE, idField: 'lineId' },
  input: z.strictObject({
    ...inLine,
    sectionId: SectionId.describe('The target section (the current one to reorder within it).'),
    position: z.int().min(1).optional().describe('1-based place in the target section; beyond the end means last.'),
  }),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    lineId: EXAMPLE.lineId,
    expectedVersion: 2,
    sectionId: EXAMPLE.sectionId,
    position: 1,
  },
  handler: (ctx, input) => lines.moveLine(ctx, input.projectId, input.lineId, input.sectionId, input.position),
});

export const copyScheduleLinesToProject = defineAction({
  name: 'copy_schedule_lines_to_project',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Copy lines into a section of another project.',
  description: `Copies up to ${COPY_MAX} active lines of projectId, in the order given, to the end of targetSectionId in targetProjectId (which may be the same project). The copies are new lines: new ids, the target project's next codes, version 1; the sources are unchanged. Needs edit access to both projects. When the target project uses another currency, priced lines need clearPrices: true (their prices become "tbc"). Send a commandKey to retry safely.`,
  intents: [
    'copy pieces into another project',
    'reuse items from a previous job',
    'bring lines over from another project',
  ],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({
    projectId: ProjectId.describe('The project the lines are in.'),
    lineIds: z.array(LineId).min(1).max(COPY_MAX).describe('The lines to copy, in the order the copies should take.'),
    targetProjectId: ProjectId,
    targetSectionId: TargetSectionId.describe('A section of the target project; copies go at its end.'),
    clearPrices: z
      .boolean()
      .optional()
      .describe('Copy with all four prices "tbc" (needed across currencies). Default false.'),
  }),
  output: z.strictObject({ lines: z.array(Line).describe('The new lines, in order.') }),
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    lineIds: [EXAMPLE.lineId, EXAMPLE.otherLineId],
    targetProjectId: EXAMPLE.targetProjectId,
    targetSectionId: EXAMPLE.targetSectionId,
    commandKey: '6a1e0c52-8d3b-4b7e-a0f4-0e9d2c1b5a77',
  },
  handler: (ctx, input) => copyLinesToProject(ctx, input),
});
