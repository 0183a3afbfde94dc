import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { previewImport } from '../../src/domain/imports/preview.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { ImportMappingId, SectionId } from '../shared/refs.js';
import { Id } from '../../src/core/values.js';
import { CellProblem, MappingRequest, PlanCounts, PlannedLine, PlannedSections, ScheduleImport } from './records.js';
import { EX, inImport } from './shapes.js';

export const previewScheduleImport = defineAction({
  name: 'preview_schedule_import',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'imports',
  summary: 'Show how an uploaded spreadsheet would become lines, with every problem by row and column.',
  description:
    'Step 2 of an import; the schedule is not touched. Proposes a column mapping from the sheet\'s own headings (Item, Qty, Room, Supplier, Net, RRP, Sell, Lead time, Notes …; a saved mapping made for the same headings is used instead), or takes yours: mapping.columns sets the field of any column by letter (null leaves it out), mapping.headerRow the row of the headings, mapping.headingRows whether a row with only its first cell filled starts a section. Sections come from a room column (a row without one stays in the room above) or from heading rows; lines nothing places go in defaultSectionId, else a new section "Imported lines". Prices are read exactly ("£1,250.00", "1,250.5", "1.250,50"; TBC, POA, incl., by others are value states; an empty client price is derived). Returns the import with the mapping used (which it keeps), the counts, the sections and suppliers to be made or reused, and, row by row, the lines as they would become (lines, default 20) with each problem (error: the row cannot be imported as it is; warning: what was done instead); the answer stays under 8,000 bytes, and nextRow says where to continue (fromRow). Then commit_schedule_import with the import\'s version, or preview again with a changed mapping.',
  intents: ['import a spreadsheet', 'bring in items from Excel', 'load a schedule from a CSV'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  input: z.strictObject({
    ...inImport,
    sheet: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("Another sheet of the workbook, by name; default: the import's."),
    mapping: MappingRequest.optional(),
    savedMappingId: ImportMappingId.optional().describe('Use this saved mapping (list_import_mappings) as the base.'),
    defaultSectionId: SectionId.optional().describe('Where lines go that no heading row or room column places.'),
    lines: z.int().min(0).max(100).optional().describe('At most how many rows to show as lines; default 20.'),
    fromRow: z.int().min(1).optional().describe("Show lines and problems from this row on: the last answer's nextRow."),
  }),
  output: z.strictObject({
    import: ScheduleImport,
    savedMappingId: Id.nullable().describe(
      'The saved mapping used as the base, if any (import.mapping is the one used).',
    ),
    counts: PlanCounts,
    sections: PlannedSections,
    suppliers: z
      .array(
        z.strictObject({
          name: z.string(),
          supplierId: Id.nullable().describe("The studio's supplier of that name; null: made at commit."),
          new: z.boolean(),
          lines: z.int().min(0),
        }),
      )
      .describe('The suppliers lines name, matched by name to the studio’s active ones.'),
    lines: z.array(PlannedLine).describe('Rows from fromRow on, as the lines they would become.'),
    problems: z.array(CellProblem).describe('Problems from fromRow on (at most 100); counts has them all.'),
    nextRow: z
      .int()
      .nullable()
      .describe(
        'The first row not shown (the answer is kept under 8,000 bytes): preview again with fromRow; null: all shown.',
      ),
    notes: z.array(z.string()).describe('What else to know about the mapping.'),
  }),
  errors: ['NOT_FOUND', 'ARCHIVED', 'IMPORT_WRONG_STATE'],
  example: {
    projectId: EX.projectId,
    importId: EX.importId,
    mapping: {
      columns: [
        { column: 'K', field: 'description' },
        { column: 'L', field: null },
      ],
    },
  },
  handler: (ctx, input) => previewImport(ctx, input),
});
