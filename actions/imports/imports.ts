import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { cancelImport } from '../../src/domain/imports/commit.js';
import * as records from '../../src/domain/imports/records.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { page } from '../../src/core/values.js';
import { ScheduleImport } from './records.js';
import { EX, inImport } from './shapes.js';

export const getScheduleImport = defineAction({
  name: 'get_schedule_import',
  kind: 'procedure',
  effect: 'query',
  domain: 'imports',
  summary: 'Read one spreadsheet import: its status, sheets, mapping, problem counts and what it made.',
  description:
    "The import with its status (uploaded, previewed, committing, committed, canceled, failed), the file's name, format and sheets, the mapping of its last preview and that preview's problem counts, and once committed what it made (lines, sections, suppliers). preview_schedule_import shows the rows themselves.",
  intents: ['how did my import go', 'what happened to the spreadsheet I imported', "show an import's rows and errors"],
  scope: 'projects:read',
  input: z.strictObject(inImport),
  output: ScheduleImport,
  errors: ['NOT_FOUND'],
  example: { projectId: EX.projectId, importId: EX.importId },
  handler: (ctx, input) => records.getImport(ctx, input.projectId, input.importId),
});

export const listScheduleImports = defineAction({
  name: 'list_schedule_imports',
  kind: 'procedure',
  effect: 'query',
  domain: 'imports',
  summary: "List a project's spreadsheet imports, newest first.",
  description:
    "The project's imports, newest first (or sort by createdAt or filename; '-' for descending), optionally only those in one status (e.g. previewed: ready to commit).",
  scope: 'projects:read',
  input: records.IMPORT_LISTING.input,
  output: page(ScheduleImport),
  errors: ['NOT_FOUND'],
  example: { projectId: EX.projectId, status: 'previewed' },
  handler: (ctx, input) => records.listImports(ctx, input),
});

export const cancelScheduleImport = defineAction({
  name: 'cancel_schedule_import',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'imports',
  summary: 'Cancel a spreadsheet import before it is committed; nothing reaches the schedule.',
  description:
    'Cancels an uploaded, previewed or failed import: nothing of it reaches the schedule, and the rows kept for it are dropped (the import stays listed as canceled). Canceling it again changes nothing; a committed import cannot be canceled (IMPORT_WRONG_STATE): archive its lines instead.',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  input: z.strictObject(inImport),
  output: ScheduleImport,
  errors: ['NOT_FOUND', 'ARCHIVED', 'IMPORT_WRONG_STATE'],
  example: { projectId: EX.projectId, importId: EX.importId },
  handler: (ctx, input) => cancelImport(ctx, input.projectId, input.importId),
});
