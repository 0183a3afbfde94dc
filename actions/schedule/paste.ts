import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { acceptPaste, readPastedRows } from '../../src/domain/imports/paste.js';
import { keepPastedText } from '../../src/domain/imports/upload.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { ImportField } from '../imports/records.js';
import { Operation } from '../operations/records.js';
import { ProjectId, SectionId } from '../shared/refs.js';
import { EXAMPLE } from './shapes.js';

/** Pasted text up to 24 MiB, as an import file; tRPC requests stop at 1 MiB, MCP takes more. */
const MAX_TEXT = 24 * 1024 * 1024;

export const pasteScheduleLines = defineAction({
  name: 'paste_schedule_lines',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Add lines from rows copied out of a spreadsheet (tab-separated text), all or nothing.',
  description:
    'Takes text as copied from Excel, Numbers or Google Sheets (cells separated by tabs, one row a line) and adds each row as a line, by the same rules as a spreadsheet import: prices read exactly (TBC, POA, incl., by others as value states), suppliers matched by name or made, heading rows and a room column as sections. If the first row is headings (Item, Qty, Supplier, Net …) they map the columns; otherwise send columns, the field of each pasted column in order (null skips one). Lines go at the end of sectionId unless placed by a heading row or room column; without sectionId, into a new section "Pasted lines". A cell that cannot be read refuses the paste (IMPORT_HAS_ERRORS, by row and column) unless skipRowsWithErrors. At most 10,000 rows. What can be refused without writing (no headings and no columns, too many rows) is refused at once; otherwise answers the operation: poll get_operation_status until it succeeds, and its result says the lines added, by section, with any warnings. Send a fresh commandKey so a retry never adds them twice.',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  startsOperation: true,
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
  output: Operation,
  errors: ['NOT_FOUND', 'ARCHIVED', 'IMPORT_HAS_ERRORS'],
  example: {
    projectId: EXAMPLE.projectId,
    sectionId: EXAMPLE.sectionId,
    text: 'Item\tQty\tSupplier\tNet\nPendant light\t2\tPooky\t£185.00\nTable lamp\t1\tPooky\tTBC',
    commandKey: '3c9e1f2a-6b4d-4e8f-9a7c-5d2e1f0a9b8c',
  },
  // Before the write transaction: the text read into rows (refusing too many at once) and kept for the worker.
  prepare: async (env, input) => ({ rows: readPastedRows(input.text), sha256: await keepPastedText(env, input.text) }),
  handler: (ctx, input) => {
    const { rows, sha256 } = ctx.prepared as { rows: ReturnType<typeof readPastedRows>; sha256: string };
    return acceptPaste(ctx, input, rows, sha256, 'paste_schedule_lines');
  },
});
