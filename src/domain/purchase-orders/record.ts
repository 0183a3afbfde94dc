import { z } from 'zod';
import {
  type Currency as CurrencyCode,
  PURCHASE_ORDER_STATES,
  STORED_REVISION_STATES,
} from '../../../db/vocabulary.js';
import { refTo } from '../../core/schema-marks.js';
import { Currency, Id, Timestamp } from '../../core/values.js';
import { CalendarDate } from '../kit/calendar-date.js';
import { asQuantity, asRatio, figuresColumns } from '../kit/money-columns.js';
import { asJson, defineRecord, field, type TableOf } from '../kit/record.js';
import { LINE } from '../schedule/entity.js';
import { SUPPLIER } from '../suppliers/entity.js';
import {
  OrderTaxRate,
  PurchaseOrderContent,
  PurchaseOrderRevisionState,
  Quantity4,
  TradeFigures,
  TradeMoney,
  TradePriceInput,
} from './shapes.js';

export const PurchaseOrderState = z
  .enum(PURCHASE_ORDER_STATES)
  .describe(
    'draft: never issued; issued: its current revision is with the supplier; partly_delivered: some received; delivered: everything ordered received; cancelled. Delivered and cancelled orders are closed.',
  );

/** A purchase order: what the studio buys from one supplier for a project, edited as a draft, issued as revisions. */
export const PURCHASE_ORDER_RECORD = defineRecord({
  name: 'PurchaseOrder',
  description:
    "A purchase order: what the studio buys from one supplier for a project's lines, at trade prices, edited as a draft and issued as numbered revisions.",
  table: 'purchase_orders',
  owner: 'project',
  archivable: false,
  fields: {
    projectId: field(Id, { owner: true }),
    number: field(z.int().min(1).describe('1, 2, 3 … within the project.')),
    supplierId: field(refTo(Id, SUPPLIER).describe('The one supplier the order goes to (list_suppliers).'), {
      write: 'create',
      required: true,
    }),
    state: field(PurchaseOrderState),
    currency: field(Currency.describe("The project's currency when the order was made.")),
    deliveryAddress: field(z.string().max(2000).describe('Where the supplier delivers.'), {
      write: 'always',
      default: '',
    }),
    wantedBy: field(CalendarDate.nullable().describe('The date the studio wants it delivered; null: none given.'), {
      write: 'always',
      default: null,
    }),
    supplierReference: field(
      z.string().trim().max(200).nullable().describe("The supplier's own reference (their quote or account number)."),
      { write: 'always', default: null },
    ),
    notes: field(z.string().max(20_000).describe('A note to the supplier, printed on the order.'), {
      write: 'always',
      default: '',
    }),
    currentRevisionId: field(Id.nullable().describe('The latest issued revision; null while a draft.')),
    revisionCount: field(z.int().min(0).describe('Revisions issued so far.')),
    cancelReason: field(z.string().nullable()),
    shortfallNote: field(z.string().nullable().describe('What was never delivered, when cancelled part-delivered.')),
    cancelledAt: field(Timestamp.nullable()),
    createdBy: field(Id.describe('The member who made it.')),
  },
  computed: {
    supplierName: z.string(),
    tradeTotals: TradeFigures.describe('What issuing now would freeze, from the active lines at trade prices.'),
  },
});
export type PurchaseOrderRow = TableOf<typeof PURCHASE_ORDER_RECORD>;

/** A line of an order: one schedule line, the quantity ordered and the trade price; copied when added, then its own. */
export const PURCHASE_ORDER_LINE_RECORD = defineRecord({
  name: 'PurchaseOrderLine',
  description:
    'What a purchase order asks the supplier for about one schedule line: quantity and trade price (the supplier net, never the client price), copied from the schedule when added.',
  table: 'purchase_order_lines',
  owner: 'project',
  archivable: true,
  archivedMeans: 'Set when removed from the order (remove_purchase_order_lines); order lines are never deleted.',
  fields: {
    purchaseOrderId: field(Id),
    lineId: field(refTo(Id, LINE).describe('The schedule line it orders.'), { write: 'create', required: true }),
    position: field(z.int().min(1).describe('1-based order on the purchase order.')),
    reference: field(z.string().max(40).nullable().describe("The line's code when added, e.g. FF-012."), {
      write: 'always',
    }),
    productCode: field(z.string().max(200).nullable().describe("The supplier's product code: the line's by default."), {
      write: 'always',
    }),
    description: field(z.string().trim().min(1).max(2000).describe("What the supplier reads: the line's heading."), {
      write: 'always',
    }),
    quantity: field(Quantity4.describe("Quantity ordered: the line's quantity by default."), {
      write: 'always',
      column: 'quantity4',
      codec: asQuantity,
    }),
    unitName: field(z.string().nullable().describe("The line's unit when added.")),
    currency: field(Currency),
    tradePrice: field(TradePriceInput, {
      write: 'always',
      output: TradeMoney.describe("The supplier's net unit price: the line's trade price by default."),
      columns: {
        toColumns: (p: { amount4: string }) => ({ trade4: p.amount4 }),
        fromRow: (row: Record<string, unknown>) => ({
          amount4: row.trade4 as string,
          currency: row.currency as CurrencyCode,
        }),
      },
    }),
    taxRate: field(OrderTaxRate.describe("The studio's tax rate by default."), {
      write: 'always',
      column: 'tax_rate4',
      codec: asRatio,
    }),
  },
  computed: {
    tradeFigures: TradeFigures.describe('Quantity × trade price rounded once, its tax rounded once.'),
    received: Quantity4.describe('Received so far, over every delivery.'),
  },
});
export type PurchaseOrderLineRow = TableOf<typeof PURCHASE_ORDER_LINE_RECORD>;

/** An issued revision: frozen content, its digest and trade totals; only its state ever changes. */
export const PURCHASE_ORDER_REVISION_RECORD = defineRecord({
  name: 'PurchaseOrderRevision',
  description:
    'An issued purchase order revision: numbered and immutable, the content the supplier was sent, its trade totals and SHA-256 digest.',
  table: 'purchase_order_revisions',
  owner: 'project',
  archivable: false,
  fields: {
    projectId: field(Id, { owner: true }),
    purchaseOrderId: field(Id),
    number: field(z.int().min(1).describe('1 for the first issue, then one more each time.')),
    state: field(z.enum(STORED_REVISION_STATES), { output: PurchaseOrderRevisionState }),
    issuedAt: field(Timestamp),
    issuedBy: field(Id.describe('The member who issued it.')),
    digest: field(
      z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe("SHA-256 (hex) of the revision's canonical content."),
    ),
    currency: field(Currency),
    tradeTotals: field(TradeFigures, { columns: figuresColumns('') }),
    content: field(PurchaseOrderContent, { codec: asJson<PurchaseOrderContent>() }),
  },
});
export type PurchaseOrderRevisionRow = TableOf<typeof PURCHASE_ORDER_REVISION_RECORD>;

const Received = z
  .array(
    z.strictObject({
      orderLineId: Id.describe('The order line (get_purchase_order).'),
      quantity: Quantity4.describe('Received in this delivery.'),
      note: z.string().max(2000).describe('Damage or shortfall on this line; empty when none.'),
    }),
  )
  .describe('Per line, what this delivery brought.');

/** A delivery: appended once, never changed. */
export const PURCHASE_ORDER_DELIVERY_RECORD = defineRecord({
  name: 'PurchaseOrderDelivery',
  description: 'One delivery against a purchase order: the quantity each line received, the date and notes.',
  table: 'purchase_order_deliveries',
  owner: 'project',
  archivable: false,
  fields: {
    projectId: field(Id, { owner: true }),
    purchaseOrderId: field(Id),
    revisionId: field(Id.describe('The revision the delivery was checked against.')),
    receivedOn: field(CalendarDate.describe('The day it arrived.')),
    received: field(Received, {
      codec: asJson<Array<{ orderLineId: string; quantity: { amount4: string }; note: string }>>(),
    }),
    note: field(z.string().describe('About the delivery as a whole: damage, shortfall, who signed.')),
    recordedBy: field(Id),
  },
});
export type PurchaseOrderDeliveryRow = TableOf<typeof PURCHASE_ORDER_DELIVERY_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    purchase_orders: PurchaseOrderRow;
    purchase_order_lines: PurchaseOrderLineRow;
    purchase_order_revisions: PurchaseOrderRevisionRow;
    purchase_order_deliveries: PurchaseOrderDeliveryRow;
  }
}
