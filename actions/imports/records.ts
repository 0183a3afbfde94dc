import { z } from 'zod';
import { IMPORT_FORMATS, IMPORT_STATUSES, MAPPING_SOURCES } from '../../db/vocabulary.js';
import { priced, publicMoney } from '../../src/core/schema-marks.js';
import { IMPORT_MAPPING_RECORD, ImportField } from '../../src/domain/imports/record.js';
import { Id, LineStatus, named, PricedField, Quantity, Ratio, Timestamp } from '../../src/core/values.js';

export const ImportStatus = z
  .enum(IMPORT_STATUSES)
  .describe(
    'uploaded (read, not yet previewed), previewed (ready to commit), committing (being applied), committed (its lines are in the schedule), canceled or failed (nothing was applied).',
  );
named(ImportStatus, 'ImportStatus');

export { ImportField };

const ColumnLetter = z
  .string()
  .regex(/^[A-Z]{1,3}$/, 'A column letter as the spreadsheet shows it: A, B … Z, AA.')
  .describe('The column letter: A, B … AA.');

export const MappedColumn = z.strictObject({
  column: ColumnLetter,
  heading: z.string().describe('The heading written above it ("" when it has none).'),
  field: ImportField.nullable().describe('null: the column is left out.'),
});

export const ImportMapping = z
  .strictObject({
    headerRow: z.int().min(0).describe('The row holding the headings (rows above it are titles); 0: none.'),
    headingRows: z
      .boolean()
      .describe('Whether a row with only its first cell filled starts a section of that title (a heading row).'),
    columns: z.array(MappedColumn),
  })
  .describe('How a sheet becomes lines: the headings row, and the field each column fills.');
named(ImportMapping, 'ImportMapping');

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

export const ScheduleImport = z
  .strictObject({
    id: Id,
    projectId: Id,
    status: ImportStatus,
    filename: z.string(),
    mediaType: z.string().describe('As it was sent; the format is read from the bytes.'),
    byteSize: z.int().min(1),
    format: z.enum(IMPORT_FORMATS).describe('csv (any delimited text) or xlsx.'),
    encoding: z.string().nullable().describe('Delimited text: utf-8, windows-1252, utf-16le or utf-16be.'),
    delimiter: z.string().nullable().describe('Delimited text: the delimiter found ("," ";" tab "|").'),
    sheets: z
      .array(z.strictObject({ name: z.string(), rows: z.int().min(0), available: z.boolean() }))
      .describe("The file's sheets (a CSV has one); available: false when too large to import."),
    sheet: z.string().nullable().describe('The sheet being imported.'),
    mapping: ImportMapping.nullable().describe('The mapping of the last preview, which a commit applies.'),
    mappingSource: z.enum(MAPPING_SOURCES).nullable(),
    defaultSectionId: Id.nullable().describe('Where lines go that nothing else places; null: a new "Imported lines".'),
    rowCount: z.int().nullable().describe('Rows below the headings holding anything, as of the last preview.'),
    problems: z
      .strictObject({ errors: z.int().min(0), warnings: z.int().min(0) })
      .nullable()
      .describe('Problem counts of the last preview.'),
    result: z
      .strictObject({
        lines: z.int().min(0),
        sectionsCreated: z.int().min(0),
        suppliersCreated: z.int().min(0),
        skippedRows: z.int().min(0).describe('Rows with errors left out (skipRowsWithErrors).'),
      })
      .nullable()
      .describe('What the commit made.'),
    createdBy: Id.describe('The member who uploaded it.'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    previewedAt: Timestamp.nullable(),
    committedBy: Id.nullable(),
    committedAt: Timestamp.nullable(),
    canceledAt: Timestamp.nullable(),
    operationId: Id.nullable().describe(
      'The operation applying the import (committing), or that last tried to: get_operation_status.',
    ),
    version: z.int().min(1).describe('Send it as expectedVersion to commit exactly what you previewed.'),
  })
  .describe("A spreadsheet on its way into a project's schedule.");
named(ScheduleImport, 'ScheduleImport');

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
