import { z } from 'zod';
import { IMPORT_FORMATS, IMPORT_STATUSES, MAPPING_SOURCES } from '../../../db/vocabulary.js';
import { Id, named, Timestamp } from '../../core/values.js';
import { asJson, defineRecord, field, orNull, type TableOf } from '../kit/record.js';
import { IMPORT_FIELDS } from './fields.js';

export const ImportStatus = z
  .enum(IMPORT_STATUSES)
  .describe(
    'uploaded (read, not yet previewed), previewed (ready to commit), committing (being applied), committed (its lines are in the schedule), canceled or failed (nothing was applied).',
  );
named(ImportStatus, 'ImportStatus');

export const ImportField = z
  .enum(IMPORT_FIELDS)
  .describe(
    'The line field a column fills: section (the room: lines go in the section of that title, made if new), heading (the item name; required), description (several columns are joined), code, quantity, unit (matched to the studio units), status, supplier (by name; made if new), brand, productCode, finish, dimensions, leadTimeDays, url, tradePrice, retailPrice, clientPrice, deliveryPrice, markup.',
  );
named(ImportField, 'ImportField');

export const ColumnLetter = z
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

/** A saved mapping's columns: by heading (not by letter), so it fits a file whose columns are in another order. */
export const SavedColumns = z
  .array(z.strictObject({ heading: z.string(), field: ImportField.nullable() }))
  .describe('By heading, so it fits a file with the same headings in any order.');
export type SavedColumn = z.output<typeof SavedColumns>[number];

/** What the `mapping` column keeps, as JSON: the columns and whether heading rows start sections. */
export interface StoredMapping {
  columns: SavedColumn[];
  headingRows: boolean;
}

/**
 * A studio's saved column mapping. Its columns and headingRows are kept together as JSON in `mapping` and shown as two
 * fields (`present` takes them from `stored`); it is found by its lower-cased name (`name_key`) and by the headings it
 * was made for (`headings_key`), neither of which it shows. Saved whole by save_import_mapping (a new one, or the
 * same name's replaced), so it has no create or patch input of its own.
 */
export const IMPORT_MAPPING_RECORD = defineRecord({
  name: 'SavedMapping',
  description: "A studio's saved column mapping, used for any sheet with exactly its headings.",
  table: 'import_mappings',
  owner: 'studio',
  archivable: false,
  fields: {
    name: field(z.string()),
    nameKey: field(z.string(), { hidden: true }),
    headingsKey: field(z.string(), { hidden: true }),
    mapping: field(z.custom<StoredMapping>(), { hidden: true, codec: asJson<StoredMapping>() }),
    createdBy: field(Id),
  },
  computed: { columns: SavedColumns, headingRows: z.boolean() },
  // As published before the record was declared.
  order: ['id', 'name', 'columns', 'headingRows', 'createdBy', 'createdAt', 'updatedAt', 'version'],
});

export type ImportMappingRow = TableOf<typeof IMPORT_MAPPING_RECORD>;

/** A saved mapping as the API shows it: its stored JSON as columns and headingRows. */
export const presentSavedMapping = (row: ImportMappingRow) => {
  const stored = JSON.parse(row.mapping) as StoredMapping;
  return IMPORT_MAPPING_RECORD.present(row, { columns: stored.columns, headingRows: stored.headingRows });
};

const Problems = z.strictObject({ errors: z.int().min(0), warnings: z.int().min(0) });
const ImportResult = z.strictObject({
  lines: z.int().min(0),
  sectionsCreated: z.int().min(0),
  suppliersCreated: z.int().min(0),
  skippedRows: z.int().min(0).describe('Rows with errors left out (skipRowsWithErrors).'),
});
export type ImportResult = z.output<typeof ImportResult>;
export const ShownSheet = z.strictObject({ name: z.string(), rows: z.int().min(0), available: z.boolean() });
/** A sheet of an import's file as the record lists it (available: false when too large, or not kept). */
export type ShownSheet = z.output<typeof ShownSheet>;

/**
 * An import: a spreadsheet on its way into a project's schedule. The file's bytes are mechanism (the blob store, by
 * `file_sha256`); its name, type and size are shown. Its sheets are read from import_sheets (`computed`); the last
 * preview's problem counts are two columns shown as one field. Every field is the server's: an upload makes it
 * (`newRow`), previews and the commit move it on.
 */
export const IMPORT_RECORD = defineRecord({
  name: 'ScheduleImport',
  description: "A spreadsheet on its way into a project's schedule.",
  table: 'imports',
  owner: 'project',
  archivable: false,
  versionMeans: 'Send it as expectedVersion to commit exactly what you previewed.',
  fields: {
    studioId: field(Id, { hidden: true }),
    projectId: field(Id, { owner: true }),
    fileSha256: field(z.string(), { hidden: true }),
    status: field(ImportStatus, { default: 'uploaded' }),
    filename: field(z.string()),
    mediaType: field(z.string().describe('As it was sent; the format is read from the bytes.')),
    byteSize: field(z.int().min(1)),
    format: field(z.enum(IMPORT_FORMATS).describe('csv (any delimited text) or xlsx.')),
    encoding: field(z.string().nullable().describe('Delimited text: utf-8, windows-1252, utf-16le or utf-16be.')),
    delimiter: field(z.string().nullable().describe('Delimited text: the delimiter found ("," ";" tab "|").')),
    sheet: field(z.string().nullable().describe('The sheet being imported.')),
    mapping: field(ImportMapping.nullable().describe('The mapping of the last preview, which a commit applies.'), {
      codec: orNull(asJson<z.output<typeof ImportMapping>>()),
    }),
    mappingSource: field(z.enum(MAPPING_SOURCES).nullable()),
    defaultSectionId: field(
      Id.nullable().describe('Where lines go that nothing else places; null: a new "Imported lines".'),
    ),
    rowCount: field(z.int().nullable().describe('Rows below the headings holding anything, as of the last preview.')),
    problems: field(Problems.nullable().describe('Problem counts of the last preview.'), {
      columns: {
        toColumns: (p: z.output<typeof Problems> | null) => ({
          error_count: p?.errors ?? null,
          warning_count: p?.warnings ?? null,
        }),
        fromRow: (row: { error_count: number | null; warning_count: number | null }) =>
          row.error_count === null ? null : { errors: row.error_count, warnings: row.warning_count ?? 0 },
      },
    }),
    result: field(ImportResult.nullable().describe('What the commit made.'), {
      codec: orNull(asJson<ImportResult>()),
    }),
    createdBy: field(Id.describe('The member who uploaded it.')),
    previewedAt: field(Timestamp.nullable()),
    committedBy: field(Id.nullable()),
    committedAt: field(Timestamp.nullable()),
    canceledAt: field(Timestamp.nullable()),
    operationId: field(
      Id.nullable().describe(
        'The operation applying the import (committing), or that last tried to: get_operation_status.',
      ),
    ),
  },
  computed: {
    sheets: z
      .array(ShownSheet)
      .describe("The file's sheets (a CSV has one); available: false when too large to import."),
  },
  // As published before the record was declared.
  order: [
    'id',
    'projectId',
    'status',
    'filename',
    'mediaType',
    'byteSize',
    'format',
    'encoding',
    'delimiter',
    'sheets',
    'sheet',
    'mapping',
    'mappingSource',
    'defaultSectionId',
    'rowCount',
    'problems',
    'result',
    'createdBy',
    'createdAt',
    'updatedAt',
    'previewedAt',
    'committedBy',
    'committedAt',
    'canceledAt',
    'operationId',
    'version',
  ],
});

export type ImportRow = TableOf<typeof IMPORT_RECORD>;

/** One sheet of an import's file, read at upload; shown as the import's `sheets`, its cells read by previews. */
export interface ImportSheetRow {
  import_id: string;
  /** 1-based order in the file. */
  position: number;
  name: string;
  /** Rows read (blank ones included). */
  row_count: number;
  /** 1 when the sheet has more rows than an import takes; its cells are not kept. */
  too_large: number;
  /** JSON array of rows of cell texts; null when too large, or once the import is committed or canceled. */
  cells: string | null;
}

declare module '../../../db/schema.js' {
  interface Database {
    imports: ImportRow;
    import_mappings: ImportMappingRow;
    import_sheets: ImportSheetRow;
  }
}
