import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Line } from './records.js';
import { bulkUpdateLines, BULK_UPDATE_MAX } from '../../src/domain/schedule/bulk.js';
import { EXAMPLE, LinePatch } from './shapes.js';
import { LineId, ProjectId } from '../shared/refs.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';

export const bulkUpdateScheduleLines = defineAction({
  name: 'bulk_update_schedule_lines',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Change several lines at once, all or nothing.',
  description: `Applies a merge patch to each of up to ${BULK_UPDATE_MAX} lines of one project, each with the version of your last read of that line. Every version is checked first: if any line changed since (VERSION_CONFLICT, naming the lines in errors[]) or is archived (ARCHIVED), nothing at all is applied. Each line appears once.`,
  intents: ['change many pieces at once', 'set the supplier on all the lamps', 'update several items together'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  input: z.strictObject({
    projectId: ProjectId,
    lines: z
      .array(
        z.strictObject({
          lineId: LineId,
          expectedVersion: z.int().min(1).describe("The line's version from your last read."),
          patch: LinePatch,
        }),
      )
      .min(1)
      .max(BULK_UPDATE_MAX),
  }),
  output: z.strictObject({ lines: z.array(Line).describe('The updated lines, in the order sent.') }),
  errors: ['NOT_FOUND', 'VERSION_CONFLICT', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    lines: [
      { lineId: EXAMPLE.lineId, expectedVersion: 3, patch: { status: 'approved' } },
      { lineId: EXAMPLE.otherLineId, expectedVersion: 1, patch: { finish: 'Brushed brass' } },
    ],
  },
  handler: (ctx, input) => bulkUpdateLines(ctx, input.projectId, input.lines),
});
