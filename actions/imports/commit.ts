import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { commitImport } from '../../src/domain/imports/commit.js';
import { IMPORT } from '../../src/domain/imports/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { ScheduleImport } from './records.js';
import { EX, inImport } from './shapes.js';

/**
 * TODO(operations): the catalog makes this an operation (202 + Location, progress). It runs synchronously until the
 * runner lands; src/domain/imports/commit.ts applyImport is the body the worker is to run.
 */
export const commitScheduleImport = defineAction({
  name: 'commit_schedule_import',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'imports',
  summary: "Apply a previewed spreadsheet import to the project's schedule, all of it or nothing.",
  description:
    "Step 3 of an import: applies exactly the last preview's sheet and mapping, in one transaction: the new sections and suppliers, then every row as a line (codes from the section's code scheme unless the file gives them). Send expectedVersion, the import's version from that preview, so what you commit is what you saw (VERSION_CONFLICT if it was previewed again since). A row with an error refuses the whole import (IMPORT_HAS_ERRORS, with each problem's row and column) unless skipRowsWithErrors is true, which leaves those rows out. Nothing is half-applied. Returns the import, committed, with what it made.",
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: IMPORT, idField: 'importId' },
  input: z.strictObject({
    ...inImport,
    skipRowsWithErrors: z
      .boolean()
      .optional()
      .describe('Leave out rows with errors instead of refusing; default false.'),
  }),
  output: ScheduleImport,
  errors: ['NOT_FOUND', 'ARCHIVED', 'IMPORT_WRONG_STATE', 'IMPORT_HAS_ERRORS'],
  example: { projectId: EX.projectId, importId: EX.importId, expectedVersion: 2 },
  handler: (ctx, input) => commitImport(ctx, input),
});
