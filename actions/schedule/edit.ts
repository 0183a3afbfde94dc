import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Line, LineCreateFields } from './records.js';
import * as lines from '../../src/domain/schedule/lines.js';
import { EXAMPLE, inLine, LinePatch } from './shapes.js';
import { ProjectId, SectionId } from '../shared/refs.js';
import { LINE } from '../../src/domain/schedule/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';

export const createScheduleLine = defineAction({
  name: 'create_schedule_line',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Add a line at the end of a section.',
  description:
    'Creates a schedule line at the end of a section. Only heading is required; quantity defaults to 1 of the studio default unit, prices to "tbc", status to draft and code to the next code of the code scheme its section takes (suggest_next_code previews it). Send a fresh commandKey (a UUID) and repeat it with identical input to retry safely. tradePrice and markup need pricing:write.',
  intents: ['add a new piece to a room', 'put a sofa on the schedule', 'specify another item'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: LineCreateFields.extend({ projectId: ProjectId, sectionId: SectionId }),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    sectionId: EXAMPLE.sectionId,
    heading: 'Linen sofa, three seater',
    commandKey: '8d0f4f5e-2b1c-4c59-9d51-0b7f4c8f6f11',
  },
  handler: (ctx, input) => lines.createLine(ctx, input),
});

export const updateScheduleLine = defineAction({
  name: 'update_schedule_line',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Change fields of a line (merge patch).',
  description:
    'Applies patch to the line: only the fields given change; null clears a nullable field and clientPrice: null returns to the derived price. Needs expectedVersion, the version of your last read; on VERSION_CONFLICT read the line again, show what changed and report, never replay blindly. Archived lines are refused (ARCHIVED). Custom property values: set_custom_property_value; to change them together with fields in one version, or on several lines in one call, bulk_update_schedule_lines (one entry is fine).',
  intents: ['change the finish of a piece', 'set the quantity or price of an item', 'edit a line'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: LINE, idField: 'lineId' },
  input: z.strictObject({ ...inLine, patch: LinePatch }),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    lineId: EXAMPLE.lineId,
    expectedVersion: 3,
    patch: { finish: 'Natural oak', leadTimeDays: 42 },
  },
  // The handler starts by loading the line: that read leaves with the ownership reads.
  readAhead: (input) => lines.loadLineRead(input.lineId),
  handler: (ctx, input) => lines.updateLine(ctx, input.projectId, input.lineId, input.patch),
});

export const duplicateScheduleLine = defineAction({
  name: 'duplicate_schedule_line',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Copy a line, placing the copy right after it.',
  description:
    'Creates a new line with the same fields (a new id, the next free code, version 1) directly after the source line; later lines in the section move down one. Archived lines cannot be duplicated. Send a commandKey to retry safely.',
  intents: ['copy a piece', 'another one of the same item', 'duplicate an item'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject(inLine),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, lineId: EXAMPLE.lineId, commandKey: '2f6c3a0e-4c1b-4d0a-9f3e-6f1b2a7c9d10' },
  handler: (ctx, input) => lines.duplicateLine(ctx, input.projectId, input.lineId),
});
