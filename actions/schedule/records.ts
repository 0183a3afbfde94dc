import { keptApartFromVersion } from '../../src/core/etag.js';
import { LineOrdering } from '../../src/domain/purchase-orders/on-lines.js';
import { z } from 'zod';
import { priced, publicMoney } from '../../src/core/schema-marks.js';
import { SupplierId, UnitId } from '../shared/refs.js';
import {
  Amount4,
  Id,
  LineStatus,
  Markup,
  Money,
  QuantityAmount4,
  named,
  PricedField,
  PricedFieldInput,
  Quantity,
  Ratio,
  Timestamp,
} from '../../src/core/values.js';

/**
 * A custom property value as the API carries it, by the property's kind: text, long_text, url, date (YYYY-MM-DD) and
 * single_choice (the option id) are strings; yes_no a boolean; multiple_choice option ids; number { amount4 }; money a
 * Money in the project's currency.
 */
export const PropertyValueData = z.union([
  z.string(),
  z.boolean(),
  z.array(z.string()),
  publicMoney(Money),
  z.strictObject({ amount4: Amount4 }),
]);

export const PropertyValue = z.strictObject({
  propertyId: Id,
  name: z.string(),
  value: PropertyValueData,
});
named(PropertyValue, 'PropertyValue');

/** A library specification as a line lists it (src/domain/specifications/on-lines.ts). */
export const LineSpecification = z
  .strictObject({
    id: Id.describe('The specification: get_specification reads it whole.'),
    name: z.string(),
    position: z.int().min(1).describe("1-based order among the line's specifications."),
    archived: z.boolean().describe('Archived in the library: it stays on this line, but no line can newly take it.'),
  })
  .describe('A specification attached to a line.');
named(LineSpecification, 'LineSpecification');

/** A schedule line (`items` in paths). Pricing fields marked below are absent for callers without pricing:read. */
export const Line = z
  .strictObject({
    id: Id,
    projectId: Id,
    sectionId: Id,
    position: z.int().min(1).describe('1-based order within its section.'),
    code: z.string().nullable().describe('The studio code, e.g. FF-012.'),
    heading: z.string().describe('The short wording of the line.'),
    description: z.string().describe('The long prose of the line.'),
    status: LineStatus,
    supplierId: Id.nullable(),
    supplierName: z.string().nullable().describe("The supplier's name."),
    brand: z.string().nullable(),
    productCode: z.string().nullable(),
    url: z.string().nullable(),
    finish: z.string().nullable(),
    dimensions: z.string().nullable(),
    leadTimeDays: z.int().nullable(),
    quantity: Quantity,
    unitName: z.string().nullable().describe("The unit's name (each, m² …)."),
    markup: priced(Ratio).nullable().optional().describe('Needs pricing:read; null: the project default.'),
    tradePrice: priced(PricedField).optional().describe("Needs pricing:read. The studio's unit cost."),
    retailPrice: publicMoney(PricedField).describe('Recommended retail, per unit.'),
    clientPrice: publicMoney(
      PricedField.extend({
        source: z.enum(['derived', 'manual']).describe('derived: trade × (1 + markup); manual: set by hand.'),
      }),
    ).describe('Unit price to the client.'),
    deliveryPrice: publicMoney(PricedField).describe('Delivery for the line.'),
    properties: z.array(PropertyValue).describe('Custom property values, in property order.'),
    specifications: z
      .array(LineSpecification)
      .describe(
        'Library specifications attached to the line, in its order (attach_specification_to_line); get_specification reads one whole.',
      ),
    ordering: LineOrdering,
    margin: priced(Money)
      .nullable()
      .optional()
      .describe('Needs pricing:read. Client − trade per unit, when both are set.'),
    clientTotal: publicMoney(Money)
      .nullable()
      .describe('Quantity × client unit rate, rounded once; null unless the client price is set.'),
    version: z.int().min(1).describe('+1 on every change; send it back as If-Match / expectedVersion.'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable().describe('Set when archived; lines are never deleted.'),
  })
  .describe('A schedule line.');
named(Line, 'Line');
// Purchase orders and deliveries move a line's ordering, never its version: see LineOrdering for the ETag's rule.
keptApartFromVersion(Line, ['ordering']);

/**
 * A line's link: a web address, http:// or https:// only (as a url custom property and an imported link), so no
 * `javascript:`, `data:` or `file:` link ever reaches a page or a document that shows it.
 */
const WebAddress = z
  .string()
  .max(2000)
  .refine(
    (s) => /^https?:\/\/\S+$/i.test(s) && URL.canParse(s),
    'A link is a web address starting http:// or https://, e.g. https://example.com/sofa; send that, or null for none.',
  );

/** The editable fields of a line, shared by create, update (merge patch) and bulk update. */
export const LineFields = z.strictObject({
  code: z.string().max(40).nullable(),
  heading: z.string().min(1).max(500),
  description: z.string().max(20_000),
  status: LineStatus,
  supplierId: SupplierId.nullable(),
  brand: z.string().max(200).nullable(),
  productCode: z.string().max(200).nullable(),
  url: WebAddress.nullable(),
  finish: z.string().max(500).nullable(),
  dimensions: z.string().max(500).nullable(),
  leadTimeDays: z.int().min(0).max(3650).nullable(),
  quantity: z
    .strictObject({ amount4: QuantityAmount4, unitId: UnitId.optional() })
    .describe("unitId defaults to the line's unit."),
  markup: priced(Markup).nullable().describe('Needs pricing:write. Null returns to the project default.'),
  tradePrice: priced(PricedFieldInput).describe('Needs pricing:write.'),
  retailPrice: PricedFieldInput,
  clientPrice: PricedFieldInput.nullable().describe('null returns to the derived price, trade × (1 + markup).'),
  deliveryPrice: PricedFieldInput,
});
