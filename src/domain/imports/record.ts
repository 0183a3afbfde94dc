import { z } from 'zod';
import { Id, named } from '../../core/values.js';
import { asJson, defineRecord, field, type TableOf } from '../kit/record.js';
import { IMPORT_FIELDS } from './fields.js';

export const ImportField = z
  .enum(IMPORT_FIELDS)
  .describe(
    'The line field a column fills: section (the room: lines go in the section of that title, made if new), heading (the item name; required), description (several columns are joined), code, quantity, unit (matched to the studio units), status, supplier (by name; made if new), brand, productCode, finish, dimensions, leadTimeDays, url, tradePrice, retailPrice, clientPrice, deliveryPrice, markup.',
  );
named(ImportField, 'ImportField');

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

declare module '../../../db/schema.js' {
  interface Database {
    import_mappings: ImportMappingRow;
  }
}
