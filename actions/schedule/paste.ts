import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { pasteLines, readPastedRows } from '../../src/domain/imports/paste.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { ImportField } from '../imports/records.js';
import { CellProblem } from '../imports/records.js';
import { ProjectId, SectionId } from '../shared/refs.js';
import { Id } from '../shared/values.js';
import { EXAMPLE } from './shapes.js';

/** Pasted text up to 24 MiB, as an import file; tRPC requests stop at 1 MiB, MCP takes more. */
const MAX_TEXT = 24 * 1024 * 1024;

/**
 * TODO(operations): the catalog makes this an operation (202 + Location, progress). It runs synchronously until the
 * runner lands, on the same plan-and-apply as imports (src/domain/imports/paste.ts).
 */
export const pasteScheduleLines = defineAction({
  name: 'paste_schedule_lines',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Add lines from rows copied out of a spreadsheet (tab-separated text), all or nothing.',
  description:
    'Takes text as copied from Excel, Numbers or Google Sheets (cells separated by tabs, one row a line) and adds each row as a line, by the same rules as a spreadsheet import: prices read exactly (TBC, POA, incl., by others as value states), suppliers matched by name or made, heading rows and a room column as sections. If the first row is headings (Item, Qty, Supplier, Net …) they map the columns; otherwise send columns, the field of each pasted column in order (null skips one). Lines go at the end of sectionId unless placed by a heading row or room column; without sectionId, into a new section "Pasted lines". A cell that cannot be read refuses the paste (IMPORT_HAS_ERRORS, by row and column) unless skipRowsWithErrors. At most 10,000 rows. Send a fresh commandKey so a retry never adds them twice.',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({
    projectId: ProjectId,
    sectionId: SectionId.optional().describe('The section the lines go in (at its end).'),
    text: z.string().min(1).max(MAX_TEXT).describe('The copied cells: tab-separated, a row per line.'),
    columns: z
      .array(ImportField.nullable())
      .min(1)
      .max(200)
      .optional()
      .describe('The field of each pasted column, in order; needed when the first row is not headings.'),
    headingRows: z.boolean().optional().describe('Default true: a row with only its first cell filled is a section.'),
    skipRowsWithErrors: z
      .boolean()
      .optional()
      .describe('Leave out rows with errors instead of refusing; default false.'),
  }),
  output: z.strictObject({
    lines: z.int().min(0).describe('Lines added.'),
    sectionsCreated: z.int().min(0),
    suppliersCreated: z.int().min(0),
    skippedRows: z.int().min(0).describe('Rows with errors left out (skipRowsWithErrors).'),
    sections: z
      .array(z.strictObject({ sectionId: Id, title: z.string(), new: z.boolean(), lines: z.int().min(0) }))
      .describe('The sections the lines went in.'),
    warnings: z.array(CellProblem).describe('What was done instead where a cell was unclear (the first 100).'),
    notes: z.array(z.string()),
  }),
  errors: ['NOT_FOUND', 'ARCHIVED', 'IMPORT_HAS_ERRORS'],
  example: {
    projectId: EXAMPLE.projectId,
    sectionId: EXAMPLE.sectionId,
    text: 'Item\tQty\tSupplier\tNet\nPendant light\t2\tPooky\t£185.00\nTable lamp\t1\tPooky\tTBC',
    commandKey: '3c9e1f2a-6b4d-4e8f-9a7c-5d2e1f0a9b8c',
  },
  prepare: async (_env, input) => readPastedRows(input.text),
  handler: (ctx, input) => pasteLines(ctx, input, ctx.prepared as ReturnType<typeof readPastedRows>),
});
