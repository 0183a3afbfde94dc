import { z } from 'zod';
import { ORDER_SKIP_REASONS } from '../../db/vocabulary.js';
import { Id, named } from '../../src/core/values.js';
import {
  PURCHASE_ORDER_DELIVERY_RECORD,
  PURCHASE_ORDER_LINE_RECORD,
  PURCHASE_ORDER_RECORD,
  PURCHASE_ORDER_REVISION_RECORD,
} from '../../src/domain/purchase-orders/record.js';
import { TradeFigures } from '../../src/domain/purchase-orders/shapes.js';
import { PurchaseOrderLineId } from '../shared/refs.js';

/** An order as lists answer it (declared in src/domain/purchase-orders/record.ts). */
export const PurchaseOrder = PURCHASE_ORDER_RECORD.output;
export const PurchaseOrderLine = PURCHASE_ORDER_LINE_RECORD.output;
export const PurchaseOrderRevision = PURCHASE_ORDER_REVISION_RECORD.output;
export const PurchaseOrderDelivery = PURCHASE_ORDER_DELIVERY_RECORD.output;

/** An order whole: its active lines with their figures and what each received, and its deliveries. */
export const PurchaseOrderWhole = named(
  PurchaseOrder.extend({
    lines: z.array(PurchaseOrderLine).describe('The lines it orders now, in order.'),
    deliveries: z.array(PurchaseOrderDelivery).describe('Every delivery recorded, first first.'),
  }).describe('A purchase order with its lines and deliveries.'),
  'PurchaseOrderWhole',
);

export const NewPurchaseOrderLine = PURCHASE_ORDER_LINE_RECORD.createInput;
export const PurchaseOrderLinePatch = PURCHASE_ORDER_LINE_RECORD.patchInput.extend({
  orderLineId: PurchaseOrderLineId,
});

/** A line as an order made by supplier has it (get_purchase_order reads the order's own lines whole). */
const PlannedLine = named(
  PurchaseOrderLine.omit({
    id: true,
    purchaseOrderId: true,
    received: true,
    version: true,
    createdAt: true,
    updatedAt: true,
    archived_at: true,
  }).describe('A line an order by supplier orders: the schedule line, quantity, trade price and figures.'),
  'PlannedOrderLine',
);

/** What create_purchase_orders_by_supplier made (or, dry run, would make), and what it left out. */
export const OrdersBySupplier = named(
  z
    .strictObject({
      dryRun: z.boolean().describe('true: nothing was written; the orders are what the call would make.'),
      orders: z.array(
        z.strictObject({
          supplierId: Id,
          supplierName: z.string(),
          purchaseOrderId: Id.nullable().describe('The draft made; null on a dry run.'),
          number: z.int().min(1).nullable(),
          lines: z.array(PlannedLine),
          tradeTotals: TradeFigures,
        }),
      ),
      skipped: z
        .array(
          z.strictObject({
            lineId: Id,
            reference: z.string().nullable(),
            heading: z.string(),
            reason: z.enum(ORDER_SKIP_REASONS),
            message: z.string().describe('What to do to order it.'),
          }),
        )
        .describe('Lines not ordered, each with why: never guessed.'),
    })
    .describe('Draft purchase orders, one per supplier, and the lines left out.'),
  'OrdersBySupplier',
);

/** Fake ids for examples: the shape the API mints, no meaning. */
export const ORDER_EX = {
  purchaseOrderId: '0000000000000000000000000p',
  orderLineId: '0000000000000000000000000q',
  lineId: '0000000000000000000000000l',
  supplierId: '0000000000000000000000000s',
  revisionId: '0000000000000000000000000r',
} as const;
