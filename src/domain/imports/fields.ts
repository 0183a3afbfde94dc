/**
 * What a spreadsheet column can become: a line field, or the section (room) the line goes in. `description` may take
 * several columns (Description, Notes …), joined by blank lines in column order; every other field takes one.
 * supplier and unit are names, matched to the studio's own (a new supplier is created; an unknown unit is a warning);
 * the four prices and markup are read as exact amounts and value states.
 */
export const IMPORT_FIELDS = [
  'section',
  'heading',
  'description',
  'code',
  'quantity',
  'unit',
  'status',
  'supplier',
  'brand',
  'productCode',
  'finish',
  'dimensions',
  'leadTimeDays',
  'url',
  'tradePrice',
  'retailPrice',
  'clientPrice',
  'deliveryPrice',
  'markup',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Fields whose values need pricing:write to set (as on a line): a mapping that uses them needs it too. */
export const PRICING_WRITE_FIELDS: ReadonlySet<ImportField> = new Set(['tradePrice', 'markup']);

/** The fields that several columns may fill. */
export const MULTI_COLUMN_FIELDS: ReadonlySet<ImportField> = new Set(['description']);

/** One column of a mapping: where it is, what it was headed, and the field it fills (null: left out). */
export interface MappedColumn {
  /** The column letter, A, B … AA. */
  column: string;
  heading: string;
  field: ImportField | null;
}

/**
 * How a sheet becomes lines: the row holding the headings (rows above it are titles and are skipped), each column's
 * field, and whether a row with only its first cell filled starts a section (a heading row).
 */
export interface ImportMapping {
  headerRow: number;
  columns: MappedColumn[];
  headingRows: boolean;
}
