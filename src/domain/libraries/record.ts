import { z } from 'zod';
import { priced, publicMoney, refTo } from '../../core/schema-marks.js';
import { Currency, Id, PricedField, PricedFieldInput } from '../../core/values.js';
import { pricedColumns } from '../kit/priced-columns.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';
import { SUPPLIER } from '../suppliers/entity.js';
import { LIBRARY } from './entity.js';

/** A library: a studio's named collection of products. Name is the only field a create needs. */
export const LIBRARY_RECORD = defineRecord({
  name: 'Library',
  description: "A library: a studio's named collection of products it specifies again and again.",
  table: 'libraries',
  owner: 'studio',
  archivable: true,
  fields: {
    name: field(z.string().trim().min(1).max(200).describe('What the collection is, e.g. "Lighting we trust".'), {
      write: 'always',
      required: true,
    }),
    description: field(z.string().max(2000).describe('What belongs in it and when to reach for it.'), {
      write: 'always',
      default: '',
    }),
  },
  computed: {
    productCount: z.int().min(0).describe('Products in it that have not been removed.'),
  },
});

export type LibraryRow = TableOf<typeof LIBRARY_RECORD>;

const CapturedFrom = z.strictObject({ projectId: Id, lineId: Id });

/**
 * A product kept in a library: a line's descriptive fields (in the bounds a line's have) and its trade and retail
 * prices, in the product's own currency. `tradePrice` is priced: written only with pricing:write, withheld without
 * pricing:read (the marks on its input and output schemas say so).
 */
export const LIBRARY_PRODUCT_RECORD = defineRecord({
  name: 'LibraryProduct',
  description:
    'A product kept in a library. To use it, call create_schedule_line with its heading, description, supplierId, brand, productCode, url, finish, dimensions, leadTimeDays, tradePrice and retailPrice.',
  table: 'library_products',
  owner: 'studio',
  archivable: true,
  archivedMeans: 'Set when removed from its library; products are never deleted.',
  fields: {
    libraryId: field(refTo(Id, LIBRARY), { write: 'create', required: true }),
    heading: field(z.string().min(1).max(500).describe('The short wording, as a line heading.'), { write: 'always' }),
    description: field(z.string().max(20_000), { write: 'always', default: '' }),
    supplierId: field(refTo(Id, SUPPLIER).nullable(), { write: 'always' }),
    brand: field(z.string().max(200).nullable(), { write: 'always' }),
    productCode: field(z.string().max(200).nullable(), { write: 'always' }),
    url: field(z.string().max(2000).nullable(), { write: 'always' }),
    finish: field(z.string().max(500).nullable(), { write: 'always' }),
    dimensions: field(z.string().max(500).nullable(), { write: 'always' }),
    leadTimeDays: field(z.int().min(0).max(3650).nullable(), { write: 'always' }),
    currency: field(
      Currency.describe(
        "The prices' currency: the captured line's project's, else the one sent when the product is added, else the studio's.",
      ),
      { write: 'create' },
    ),
    tradePrice: field(priced(PricedFieldInput).describe('Needs pricing:write.'), {
      write: 'always',
      default: { state: 'tbc' as const },
      output: priced(PricedField).optional().describe("Needs pricing:read. The studio's unit cost."),
      columns: pricedColumns('trade_state', 'trade4'),
    }),
    retailPrice: field(PricedFieldInput, {
      write: 'always',
      default: { state: 'tbc' as const },
      output: publicMoney(PricedField).describe('Recommended retail, per unit.'),
      columns: pricedColumns('retail_state', 'retail4'),
    }),
    capturedFrom: field(
      CapturedFrom.nullable().describe('The schedule line it was captured from; null when added fresh.'),
      {
        columns: {
          toColumns: (from: z.output<typeof CapturedFrom> | null) => ({
            source_project_id: from?.projectId ?? null,
            source_line_id: from?.lineId ?? null,
          }),
          fromRow: (row: { source_project_id: string | null; source_line_id: string | null }) =>
            row.source_project_id === null || row.source_line_id === null
              ? null
              : { projectId: row.source_project_id, lineId: row.source_line_id },
        },
      },
    ),
  },
  computed: {
    supplierName: z.string().nullable().describe("The supplier's name, beside its id."),
  },
  // As published before the record was declared: the supplier's name beside its id.
  order: [
    'id',
    'libraryId',
    'heading',
    'description',
    'supplierId',
    'supplierName',
    'brand',
    'productCode',
    'url',
    'finish',
    'dimensions',
    'leadTimeDays',
    'currency',
    'tradePrice',
    'retailPrice',
    'capturedFrom',
    'version',
    'createdAt',
    'updatedAt',
    'archived_at',
  ],
});

export type LibraryProductRow = TableOf<typeof LIBRARY_PRODUCT_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    libraries: LibraryRow;
    library_products: LibraryProductRow;
  }
}
