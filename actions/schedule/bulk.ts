import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Line } from './records.js';
import { bulkUpdateLines, BULK_UPDATE_MAX } from '../../src/domain/schedule/bulk.js';
import { EXAMPLE, LinePatchWithValues } from './shapes.js';
import { LineId, ProjectId } from '../shared/refs.js';
import { EX } from '../properties/properties.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';

export const bulkUpdateScheduleLines = defineAction({
  name: 'bulk_update_schedule_lines',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Change several lines at once (fields and custom property values), all or nothing.',
  description: `Applies a merge patch to each of up to ${BULK_UPDATE_MAX} lines of one project, each with the version of your last read of that line (list_lines with fields ["version"] reads them all in one call). A patch takes the fields update_schedule_line takes, and properties: custom property values by property id, as set_custom_property_value takes them (null clears), so one custom column can be filled in on many lines in one call. Every version is checked first: if any line changed since (VERSION_CONFLICT, naming the lines in errors[]), is archived (ARCHIVED), or a value does not fit its property (VALIDATION_FAILED at lines.<i>.patch.properties.<propertyId>; NOT_FOUND or ARCHIVED for a property that is not an active one of this project), nothing at all is applied. Each changed line moves exactly one version on, with one audit event naming its changed fields and values; a line whose patch changes nothing stays at its version. Each line appears once. Returns the lines in the order sent.`,
  intents: [
    'change many pieces at once',
    'set the supplier on all the lamps',
    'update several items together',
    'give all these pieces the same value in our own column',
    'fill in a custom column for several items at once',
    'apply one custom value to many lines',
  ],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  input: z.strictObject({
    projectId: ProjectId,
    lines: z
      .array(
        z.strictObject({
          lineId: LineId,
          expectedVersion: z.int().min(1).describe("The line's version from your last read."),
          patch: LinePatchWithValues,
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
      {
        lineId: EXAMPLE.otherLineId,
        expectedVersion: 1,
        patch: { finish: 'Brushed brass', properties: { [EX.propertyId]: 'BS 5852 crib 5' } },
      },
    ],
  },
  handler: (ctx, input) => bulkUpdateLines(ctx, input.projectId, input.lines),
});
