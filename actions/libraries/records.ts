import { z } from 'zod';
import { priced, publicMoney } from '../../src/core/schema-marks.js';
import { LineFields } from '../schedule/records.js';
import { Currency, Id, named, PricedField, Timestamp } from '../../src/core/values.js';

/** What a studio keeps about a library; name is the only field required to create one. */
export const LibraryFields = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('What the collection is, e.g. "Lighting we trust".'),
  description: z.string().max(2000).describe('What belongs in it and when to reach for it.'),
});

export const Library = z
  .strictObject({
    id: Id,
    name: z.string(),
    description: z.string(),
    productCount: z.int().min(0).describe('Products in it that have not been removed.'),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable().describe('Set when archived; libraries are never deleted.'),
  })
  .describe("A library: a studio's named collection of products it specifies again and again.");
named(Library, 'Library');

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
