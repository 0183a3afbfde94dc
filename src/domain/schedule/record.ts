import type { Updateable } from 'kysely';
import { z } from 'zod';
import type { Currency, ValueState } from '../../../db/vocabulary.js';
import { priced, publicMoney, refTo } from '../../core/schema-marks.js';
import {
  Amount4,
  Id,
  LineStatus,
  Markup,
  Money,
  named,
  PricedField,
  PricedFieldInput,
  Quantity,
  QuantityAmount4,
  Ratio,
} from '../../core/values.js';
import { type PricedInput, pricedColumns } from '../kit/priced-columns.js';
import {
  type Codec,
  type ColumnsCodec,
  defineRecord,
  field,
  orNull,
  type PatchValues,
  type TableOf,
} from '../kit/record.js';
import { LineOrdering } from '../purchase-orders/on-lines.js';
import { SUPPLIER } from '../suppliers/entity.js';
import { UNIT } from '../units/entity.js';

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

/** What presenting a line needs beside its row: its project's currency, which its prices are in. */
const inProjectCurrency = (_row: unknown, context: unknown) => (context as { currency: Currency }).currency;
const pricedPair = <S extends string, A extends string>(state: S, amount: A) =>
  pricedColumns(state, amount, inProjectCurrency);

/** The client price as set by hand: null (both columns null) while it is derived from trade × markup. */
const manualClientPrice: ColumnsCodec<
  PricedInput | null,
  { client_state: ValueState | null; client4: string | null },
  z.input<typeof PricedField> | null
> = (() => {
  const pair = pricedPair('client_state', 'client4');
  return {
    toColumns: (p) => (p === null ? { client_state: null, client4: null } : pair.toColumns(p)),
    fromRow: (row, context) =>
      row.client_state === null ? null : pair.fromRow({ ...row, client_state: row.client_state }, context),
  };
})();

/** A quantity kept as its amount and its unit; a patch that leaves the unit out keeps the line's. */
const quantityColumns: ColumnsCodec<
  { amount4: string; unitId?: string | undefined },
  { quantity4: string; unit_id: string },
  z.input<typeof Quantity>
> = {
  toColumns: (q) =>
    (q.unitId ? { quantity4: q.amount4, unit_id: q.unitId } : { quantity4: q.amount4 }) as {
      quantity4: string;
      unit_id: string;
    },
  fromRow: (row) => ({ amount4: row.quantity4, unitId: row.unit_id }),
};

const asMarkup: Codec<{ ratio4: string } | null, string | null> = orNull({
  toColumn: (v: { ratio4: string }) => v.ratio4,
  fromColumn: (c: string) => ({ ratio4: c }),
});

const editable = { write: 'always' } as const;

/**
 * A schedule line (`items` in paths). Its four priced fields are each a state and an amount; the client price sent
 * by hand is kept (hidden) while the client price answered is worked out from it or from trade × markup, with the
 * margin and the total (src/domain/schedule/pricing.ts). Supplier and unit names, custom property values,
 * specifications and ordering are read beside the row (LinePresentation). Pricing fields marked below are absent for
 * callers without pricing:read.
 */
export const LINE_RECORD = defineRecord({
  name: 'Line',
  description: 'A schedule line.',
  table: 'lines',
  owner: 'project',
  archivable: true,
  versionMeans: '+1 on every change; send it back as If-Match / expectedVersion.',
  fields: {
    projectId: field(Id, { owner: true }),
    sectionId: field(Id),
    position: field(z.int().min(1).describe('1-based order within its section.')),
    code: field(z.string().max(40).nullable(), {
      ...editable,
      output: z.string().nullable().describe('The studio code, e.g. FF-012.'),
    }),
    heading: field(z.string().min(1).max(500), {
      ...editable,
      required: true,
      output: z.string().describe('The short wording of the line.'),
    }),
    description: field(z.string().max(20_000), {
      ...editable,
      default: '',
      output: z.string().describe('The long prose of the line.'),
    }),
    status: field(LineStatus, { ...editable, default: 'draft' }),
    supplierId: field(refTo(Id, SUPPLIER).nullable(), { ...editable, output: Id.nullable() }),
    brand: field(z.string().max(200).nullable(), { ...editable, output: z.string().nullable() }),
    productCode: field(z.string().max(200).nullable(), { ...editable, output: z.string().nullable() }),
    url: field(WebAddress.nullable(), { ...editable, output: z.string().nullable() }),
    finish: field(z.string().max(500).nullable(), { ...editable, output: z.string().nullable() }),
    dimensions: field(z.string().max(500).nullable(), { ...editable, output: z.string().nullable() }),
    leadTimeDays: field(z.int().min(0).max(3650).nullable(), { ...editable, output: z.int().nullable() }),
    quantity: field(
      z
        .strictObject({ amount4: QuantityAmount4, unitId: refTo(Id, UNIT).optional() })
        .describe("unitId defaults to the line's unit."),
      { ...editable, default: { amount4: '10000' }, output: Quantity, columns: quantityColumns },
    ),
    markup: field(priced(Markup).nullable().describe('Needs pricing:write. Null returns to the project default.'), {
      ...editable,
      output: priced(Ratio).nullable().optional().describe('Needs pricing:read; null: the project default.'),
      column: 'markup4',
      codec: asMarkup,
    }),
    tradePrice: field(priced(PricedFieldInput).describe('Needs pricing:write.'), {
      ...editable,
      default: { state: 'tbc' },
      output: priced(PricedField).optional().describe("Needs pricing:read. The studio's unit cost."),
      columns: pricedPair('trade_state', 'trade4'),
    }),
    retailPrice: field(PricedFieldInput, {
      ...editable,
      default: { state: 'tbc' },
      output: publicMoney(PricedField).describe('Recommended retail, per unit.'),
      columns: pricedPair('retail_state', 'retail4'),
    }),
    // Kept as sent (null: derived); the clientPrice answered is computed below from it or from trade × markup.
    clientPrice: field(
      PricedFieldInput.nullable().describe('null returns to the derived price, trade × (1 + markup).'),
      { ...editable, hidden: true, columns: manualClientPrice },
    ),
    deliveryPrice: field(PricedFieldInput, {
      ...editable,
      default: { state: 'tbc' },
      output: publicMoney(PricedField).describe('Delivery for the line.'),
      columns: pricedPair('delivery_state', 'delivery4'),
    }),
  },
  computed: {
    supplierName: z.string().nullable().describe("The supplier's name."),
    unitName: z.string().nullable().describe("The unit's name (each, m² …)."),
    clientPrice: publicMoney(
      PricedField.extend({
        source: z.enum(['derived', 'manual']).describe('derived: trade × (1 + markup); manual: set by hand.'),
      }),
    ).describe('Unit price to the client.'),
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
  },
  // The published order, which predates this declaration: each name beside the id it names, the client price among
  // the prices.
  after: { supplierName: 'supplierId', unitName: 'quantity', clientPrice: 'retailPrice' },
});

export type LineRow = TableOf<typeof LINE_RECORD>;
export type LineUpdate = Updateable<LineRow>;
/**
 * A line's fields as callers send them (create_schedule_line, update, bulk, paste, imports); LINE_RECORD.patchColumns
 * maps those present onto columns (merge-patch semantics).
 */
export type LineFieldsInput = PatchValues<typeof LINE_RECORD.spec.fields>;

declare module '../../../db/schema.js' {
  interface Database {
    lines: LineRow;
  }
}
