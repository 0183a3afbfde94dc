import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { LineStatus } from '../../src/core/values.js';
import { Line } from './records.js';
import * as lines from '../../src/domain/schedule/lines.js';
import { setLineStatus } from '../../src/domain/schedule/status.js';
import { EXAMPLE, inLine } from './shapes.js';
import { SectionId } from '../shared/refs.js';
import { LINE } from '../../src/domain/schedule/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';

export const archiveScheduleLine = defineAction({
  name: 'archive_schedule_line',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Archive a line (lines are never deleted).',
  description:
    'Sets archived_at and increases the version; the line leaves the schedule and shows as removed in the client document. A second archival is refused with ALREADY_ARCHIVED. Needs expectedVersion.',
  intents: ['delete a piece we no longer need', 'take the chair off the schedule', 'remove an item'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: LINE, idField: 'lineId' },
  input: z.strictObject(inLine),
  output: Line,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, lineId: EXAMPLE.lineId, expectedVersion: 4 },
  handler: (ctx, input) => lines.archiveLine(ctx, input.projectId, input.lineId),
});

export const restoreScheduleLine = defineAction({
  name: 'restore_schedule_line',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Bring an archived line back into the schedule.',
  description:
    'Clears archived_at and increases the version; the line returns to its place, or to the end of sectionId when given (needed when its own section has been archived since). A line that is not archived is refused with NOT_ARCHIVED; restoring into an archived section answers ARCHIVED. Needs expectedVersion.',
  intents: ['bring back a piece I deleted', 'undo removing an item', 'restore an archived line'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: LINE, idField: 'lineId' },
  input: z.strictObject({
    ...inLine,
    sectionId: SectionId.optional().describe(
      "An active section to restore into, at its end; default: the line's own section.",
    ),
  }),
  output: Line,
  errors: ['NOT_FOUND', 'NOT_ARCHIVED', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, lineId: EXAMPLE.lineId, expectedVersion: 5 },
  handler: (ctx, input) => lines.restoreLine(ctx, input.projectId, input.lineId, input.sectionId),
});

export const setScheduleLineStatus = defineAction({
  name: 'set_schedule_line_status',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: "Change a line's status (draft, specified, approved, ordered …).",
  description:
    'Sets the status and increases the version. Setting the status the line already has changes nothing and returns the line as it is. Archived lines are refused (ARCHIVED). Needs expectedVersion.',
  intents: ['the client approved the lighting', 'mark pieces as ordered or delivered', 'where does this piece stand'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: LINE, idField: 'lineId' },
  input: z.strictObject({ ...inLine, status: LineStatus }),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, lineId: EXAMPLE.lineId, expectedVersion: 2, status: 'approved' },
  handler: (ctx, input) => setLineStatus(ctx, input.projectId, input.lineId, input.status),
});
