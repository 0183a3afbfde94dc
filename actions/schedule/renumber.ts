import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Id } from '../../src/core/values.js';
import { renumberLines } from '../../src/domain/schedule/renumber.js';
import { EXAMPLE } from './shapes.js';
import { ProjectId } from '../shared/refs.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';

export const renumberScheduleLines = defineAction({
  name: 'renumber_schedule_lines',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Give the active lines consecutive codes in document order.',
  description:
    "Reassigns the studio's codes (FF-001, FF-002 …) to the project's active lines in document order: section by section, then position, each line with the prefix of its section's code scheme (list_codes), each prefix counting from 001. Codes held by archived lines are skipped, because the client document still shows those lines as removed under their codes. Lines whose code changes get a new version; the whole mapping is recorded as one audit event. Running it again changes nothing.",
  intents: ['renumber the codes', 'tidy up the item codes', 'recode the schedule'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  input: z.strictObject({ projectId: ProjectId }),
  output: z.strictObject({
    changes: z
      .array(z.strictObject({ lineId: Id, from: z.string().nullable(), to: z.string() }))
      .describe('Only the lines whose code changed, in document order.'),
    lineCount: z.int().describe('Active lines in the project.'),
  }),
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => renumberLines(ctx, input.projectId),
});
