import { z } from 'zod';
import { priced, publicMoney } from '../../src/core/schema-marks.js';
import {
  ColumnLetter,
  IMPORT_MAPPING_RECORD,
  IMPORT_RECORD,
  ImportField,
  ImportMapping,
  ImportStatus,
  MappedColumn,
} from '../../src/domain/imports/record.js';
import { Id, LineStatus, named, PricedField, Quantity, Ratio } from '../../src/core/values.js';

export { ImportStatus };

export { ImportField };

export { ImportMapping, MappedColumn };

/** What a caller may change of the mapping: any part; the rest is the saved or proposed mapping. */
export const MappingRequest = z
  .strictObject({
    headerRow: z.int().min(1).max(10_100).optional().describe('The row holding the headings; default: found.'),
    headingRows: z.boolean().optional().describe('Default true: a row with only its first cell filled is a section.'),
    columns: z
      .array(z.strictObject({ column: ColumnLetter, field: ImportField.nullable() }))
      .max(200)
      .optional()
      .describe('The columns whose field to set (null leaves a column out); the others keep the proposed field.'),
  })
  .describe('Only what to change of the proposed (or saved) mapping.');

/** A spreadsheet on its way into a project's schedule (declared once in IMPORT_RECORD). */
export const ScheduleImport = IMPORT_RECORD.output;

export const CellProblem = z
  .strictObject({
    row: z.int().min(1).describe("The spreadsheet's own row number."),
    column: z.string().nullable().describe('The column letter; null for the whole row.'),
    heading: z.string().nullable(),
    field: ImportField.nullable(),
    severity: z
      .enum(['error', 'warning'])
      .describe('error: the row cannot become a line as it is; warning: what was done instead.'),
    value: z.string().describe("The cell's text (at most 100 characters)."),
    message: z.string().describe('What is wrong and what to do.'),
  })
  .describe('A problem with one cell (or row) of the sheet.');
named(CellProblem, 'CellProblem');

/** A row as the line it would become. */
export const PlannedLine = z.strictObject({
  row: z.int().min(1),
  section: z.string().describe('The title of the section it goes in.'),
  code: z.string().nullable().describe("The file's code; null: the next code of the section's scheme at commit."),
  heading: z.string(),
  description: z.string(),
  status: LineStatus,
  supplierName: z.string().nullable(),
  brand: z.string().nullable(),
  productCode: z.string().nullable(),
  finish: z.string().nullable(),
  dimensions: z.string().nullable(),
  leadTimeDays: z.int().nullable(),
  url: z.string().nullable(),
  quantity: Quantity,
  unitName: z.string(),
  markup: priced(Ratio).nullable().optional().describe('Needs pricing:read; null: the project default.'),
  tradePrice: priced(PricedField).optional().describe('Needs pricing:read.'),
  retailPrice: publicMoney(PricedField),
  clientPrice: publicMoney(PricedField).nullable().describe('null: derived from trade × (1 + markup).'),
  deliveryPrice: publicMoney(PricedField),
  hasErrors: z.boolean().describe('A cell of this row has an error (see problems).'),
});

export const PlanCounts = z.strictObject({
  rows: z.int().min(0).describe('Rows below the headings holding anything.'),
  lines: z.int().min(0).describe('Rows that become lines.'),
  linesWithErrors: z.int().min(0),
  headingRows: z.int().min(0).describe('Rows that start a section.'),
  blankRows: z.int().min(0),
  skippedRows: z.int().min(0).describe('Totals rows, left out.'),
  errors: z.int().min(0),
  warnings: z.int().min(0),
});

export const PlannedSections = z
  .array(
    z.strictObject({
      title: z.string(),
      sectionId: Id.nullable().describe('The existing section of that title; null: made at commit.'),
      new: z.boolean(),
      row: z.int().nullable().describe('The row that names it; null for the default section.'),
      lines: z.int().min(0),
    }),
  )
  .describe('The sections lines go in, in the order the file names them.');

/** A studio's saved column mapping (declared once in IMPORT_MAPPING_RECORD). */
export const SavedMapping = IMPORT_MAPPING_RECORD.output;
