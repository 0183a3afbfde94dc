import { z } from 'zod';
import { priced, publicMoney } from '../../src/core/schema-marks.js';
import { LineFields } from '../schedule/records.js';
import { LIBRARY_RECORD } from '../../src/domain/libraries/record.js';
import { Currency, Id, named, PricedField, Timestamp } from '../../src/core/values.js';

/** A library as the API answers it (declared once, in src/domain/libraries/record.ts). */
export const Library = LIBRARY_RECORD.output;

/**
 * The fields of a product, in the schedule's own shapes (a product is what a line describes, without its place,
 * quantity, status or client price): tradePrice is priced, so writing it needs pricing:write.
 */
export const ProductFields = LineFields.pick({
  heading: true,
  description: true,
  supplierId: true,
  brand: true,
  productCode: true,
  url: true,
  finish: true,
  dimensions: true,
  leadTimeDays: true,
  tradePrice: true,
  retailPrice: true,
});

export const LibraryProduct = z
  .strictObject({
    id: Id,
    libraryId: Id,
    heading: z.string().describe('The short wording, as a line heading.'),
    description: z.string(),
    supplierId: Id.nullable(),
    supplierName: z.string().nullable().describe("The supplier's name, beside its id."),
    brand: z.string().nullable(),
    productCode: z.string().nullable(),
    url: z.string().nullable(),
    finish: z.string().nullable(),
    dimensions: z.string().nullable(),
    leadTimeDays: z.int().nullable(),
    currency: Currency.describe("The prices' currency: the studio's, or the captured line's project's."),
    tradePrice: priced(PricedField).optional().describe("Needs pricing:read. The studio's unit cost."),
    retailPrice: publicMoney(PricedField).describe('Recommended retail, per unit.'),
    capturedFrom: z
      .strictObject({ projectId: Id, lineId: Id })
      .nullable()
      .describe('The schedule line it was captured from; null when added fresh.'),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable().describe('Set when removed from its library; products are never deleted.'),
  })
  .describe(
    'A product kept in a library. To use it, call create_schedule_line with its heading, description, supplierId, brand, productCode, url, finish, dimensions, leadTimeDays, tradePrice and retailPrice.',
  );
named(LibraryProduct, 'LibraryProduct');
