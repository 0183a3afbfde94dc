import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { startImportCommit } from '../../src/domain/imports/commit.js';
import { IMPORT } from '../../src/domain/imports/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { Operation } from '../operations/records.js';
import { EX, inImport } from './shapes.js';

export const commitScheduleImport = defineAction({
  name: 'commit_schedule_import',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'imports',
  summary: "Apply a previewed spreadsheet import to the project's schedule, all of it or nothing.",
  description:
    "Step 3 of an import: applies exactly the last preview's sheet and mapping, all of it or nothing, as an operation. Send expectedVersion, the import's version from that preview, so what you commit is what you saw (VERSION_CONFLICT if it was previewed again since). A preview that found cells with errors is refused at once (IMPORT_HAS_ERRORS; preview again to see them by row and column) unless skipRowsWithErrors is true, which leaves those rows out. Answers the operation at once, the import now committing: poll get_operation_status until it succeeds; its result says how many lines, sections and suppliers were made (the import, committed, says the same). A failed or canceled commit leaves nothing in the schedule; commit again or cancel the import.",
  intents: ['go ahead with the import', 'apply the spreadsheet I previewed', 'finish importing'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: IMPORT, idField: 'importId' },
  startsOperation: true,
  input: z.strictObject({
    ...inImport,
    skipRowsWithErrors: z
      .boolean()
      .optional()
      .describe('Leave out rows with errors instead of refusing; default false.'),
  }),
  output: Operation,
  errors: ['NOT_FOUND', 'ARCHIVED', 'IMPORT_WRONG_STATE', 'IMPORT_HAS_ERRORS'],
  example: { projectId: EX.projectId, importId: EX.importId, expectedVersion: 2 },
  handler: (ctx, input) => startImportCommit(ctx, input, 'commit_schedule_import'),
});
