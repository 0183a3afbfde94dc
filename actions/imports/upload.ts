import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { type PreparedImportFile, prepareImportFile, recordUpload } from '../../src/domain/imports/upload.js';
import { MAX_IMPORT_BYTES } from '../../src/domain/imports/limits.js';
import { ProjectId } from '../shared/refs.js';
import { ScheduleImport } from './records.js';
import { EX } from './shapes.js';

/** 24 MiB decoded is 32 MiB of base64, and a data: URL prefix. */
const BASE64_MAX_CHARS = 32 * 1024 * 1024 + 256;

export const uploadImportFile = defineAction({
  name: 'upload_import_file',
  kind: 'file',
  effect: 'mutation',
  domain: 'imports',
  summary: "Upload a spreadsheet (CSV or XLSX, base64) to import into a project's schedule.",
  description:
    'Step 1 of an import: send the file base64 in data (up to 24 MiB decoded) with its filename and mediaType (over plain HTTP: POST the file itself to /files/projects/{projectId}/imports?filename=… with its Content-Type and an Idempotency-Key) (text/csv, or application/vnd.openxmlformats-officedocument.spreadsheetml.sheet for .xlsx). The format is read from the bytes: CSV with any delimiter (comma, semicolon, tab, pipe), UTF-8 (with or without BOM), UTF-16 or Windows-1252, or an Excel workbook, whose first sheet with anything in it is used unless sheet names another. An old .xls or a damaged file is IMPORT_UNREADABLE; a sheet of more than 10,000 rows, a cell of more than 32,767 characters, or a workbook that unpacks to more than 48 MiB is PAYLOAD_TOO_LARGE. Nothing reaches the schedule yet: returns the import (status uploaded); next, preview_schedule_import shows how its rows would become lines. Send a fresh commandKey so a retry never uploads it twice.',
  // The first step is what a request to import names: without these, "import a spreadsheet" found the later steps only.
  intents: ['import a spreadsheet of lines', 'upload a CSV or Excel schedule', "bring in a supplier's price list"],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({
    projectId: ProjectId,
    data: z.string().max(BASE64_MAX_CHARS).describe('The file, base64.'),
    filename: z.string().min(1).max(500).describe('e.g. "harbour-house-lighting.xlsx".'),
    mediaType: z.string().min(1).max(200).describe('e.g. text/csv.'),
    sheet: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('A workbook sheet by name; default: the first with anything in it.'),
  }),
  output: ScheduleImport,
  errors: ['NOT_FOUND', 'ARCHIVED', 'UNSUPPORTED_MEDIA_TYPE', 'IMPORT_UNREADABLE', 'STORAGE_QUOTA_EXCEEDED'],
  example: {
    projectId: EX.projectId,
    data: 'SXRlbSxRdHksTmV0ClBlbmRhbnQsMiwiwqMxLDI1MC4wMCIK',
    filename: 'lighting.csv',
    mediaType: 'text/csv',
    commandKey: '5b8a2c1e-7d3f-4e9a-8b6c-2d1f0e9a8b7c',
  },
  fileRoute: {
    path: '/files/projects/{projectId}/imports',
    upload: { field: 'data', typeField: 'mediaType', nameField: 'filename' },
    limit: MAX_IMPORT_BYTES,
  },
  prepare: (env, input, upload) => prepareImportFile(env, input, upload),
  handler: (ctx, input) => recordUpload(ctx, input.projectId, ctx.prepared as PreparedImportFile),
});
