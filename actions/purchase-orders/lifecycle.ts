import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import { CalendarDate } from '../../src/domain/kit/calendar-date.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { ordersBySupplier } from '../../src/domain/purchase-orders/by-supplier.js';
import { cancelOrder, cancelQuestion } from '../../src/domain/purchase-orders/cancel.js';
import { recordDelivery } from '../../src/domain/purchase-orders/deliveries.js';
import { PURCHASE_ORDER } from '../../src/domain/purchase-orders/entity.js';
import { issueOrderRevision, issueQuestion } from '../../src/domain/purchase-orders/issue.js';
import { LINES_PER_CALL } from '../../src/domain/purchase-orders/lines.js';
import * as revisions from '../../src/domain/purchase-orders/revisions.js';
import { Quantity4 } from '../../src/domain/purchase-orders/shapes.js';
import { EXAMPLE } from '../projects/shapes.js';
import { CONFIRMED } from '../shared/confirmation.js';
import { pageQuery } from '../shared/queries.js';
import { EstimateRevisionId, LineId, ProjectId, PurchaseOrderId, PurchaseOrderLineId } from '../shared/refs.js';
import { ORDER_EX, OrdersBySupplier, PurchaseOrderRevision, PurchaseOrderWhole } from './records.js';

const inOrder = { projectId: ProjectId, purchaseOrderId: PurchaseOrderId.describe('From list_purchase_orders.') };
const EX = { projectId: EXAMPLE.projectId, purchaseOrderId: ORDER_EX.purchaseOrderId };

export const issuePurchaseOrderRevision = defineAction({
  name: 'issue_purchase_order_revision',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'purchaseOrders',
  summary: 'Issue a purchase order to its supplier as its next numbered revision, frozen and never changed.',
  description: `Freezes the order into revision N+1: the studio, the supplier, each line with its quantity and trade price, per-line tax (rounded once, then summed), totals, delivery address and date wanted, with a SHA-256 digest; no client price, markup or client name. The revision before it becomes superseded; the order becomes issued, and deliveries are checked against this revision. Refused when the order has no lines, and once deliveries began or it is delivered or cancelled (PURCHASE_ORDER_WRONG_STATE). Needs expectedVersion from get_purchase_order, so the person agrees to what you read. ${CONFIRMED}`,
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PURCHASE_ORDER, idField: 'purchaseOrderId' },
  confirmation: { ask: issueQuestion },
  intents: ['send the order to the supplier', 'issue the PO', 'place the order with the maker'],
  input: z.strictObject(inOrder),
  output: PurchaseOrderRevision,
  errors: ['NOT_FOUND', 'PURCHASE_ORDER_WRONG_STATE'],
  example: { ...EX, expectedVersion: 5, confirm: true },
  handler: (ctx, input) => issueOrderRevision(ctx, input.projectId, input.purchaseOrderId),
});

export const listPurchaseOrderRevisions = defineAction({
  name: 'list_purchase_order_revisions',
  kind: 'procedure',
  effect: 'query',
  domain: 'purchaseOrders',
  summary: "List a purchase order's issued revisions exactly as the supplier was sent them.",
  description:
    "Every revision issued of the order, first issued first ('-number' for newest first), each whole: number, state (current, superseded, voided when the order was cancelled), when and by whom, its trade totals, digest and frozen content (lines with orderLineId, quantities, trade prices). Trade figures are withheld without pricing:read.",
  scope: 'procurement:read',
  intents: ['what did we send the supplier', 'show earlier versions of the PO', 'purchase order history'],
  input: z.strictObject({
    ...inOrder,
    sort: z.enum(revisions.REVISION_SORT_NAMES).optional().describe('Default: number.'),
    ...pageQuery(),
  }),
  output: page(PurchaseOrderRevision),
  errors: ['NOT_FOUND'],
  example: EX,
  handler: (ctx, input) => revisions.listOrderRevisions(ctx, input),
});

export const cancelPurchaseOrder = defineAction({
  name: 'cancel_purchase_order',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'purchaseOrders',
  summary: 'Cancel a purchase order (or, once part was delivered, the rest of it) with a reason.',
  description: `Cancels a draft or issued order with a reason: its current revision becomes voided and the order is closed for good; tell the supplier. Once something was delivered, only the rest can be cancelled, and a shortfallNote saying what will not come is required; a delivered or already cancelled order is refused, as is one partly delivered without the note. Needs expectedVersion. ${CONFIRMED}`,
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PURCHASE_ORDER, idField: 'purchaseOrderId' },
  confirmation: { ask: cancelQuestion },
  intents: ['call off the PO with the supplier', 'the maker cannot supply the rest of the purchase order'],
  input: z.strictObject({
    ...inOrder,
    reason: z.string().trim().min(1).max(1000).describe('Why it is cancelled, kept with it.'),
    shortfallNote: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .optional()
      .describe('Required once part was delivered: what will not come.'),
  }),
  output: PurchaseOrderWhole,
  errors: ['NOT_FOUND', 'PURCHASE_ORDER_WRONG_STATE'],
  example: { ...EX, expectedVersion: 6, reason: 'The maker discontinued the fabric.', confirm: true },
  handler: (ctx, input) => cancelOrder(ctx, input),
});

export const recordPurchaseOrderDelivery = defineAction({
  name: 'record_purchase_order_delivery',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'purchaseOrders',
  summary: 'Record a delivery from the supplier: what arrived on each line, when, and any damage or shortfall.',
  description:
    'Appends one delivery to an issued order: per line (orderLineId from get_purchase_order) the quantity received, never more than the issued revision ordered less what already came (OVER_RECEIVED), with a damage or shortfall note; the date it arrived; a note on the whole. The order becomes partly_delivered, then delivered once every line has received all it ordered. A draft, delivered or cancelled order is refused (PURCHASE_ORDER_WRONG_STATE). Deliveries are never changed. Send a fresh commandKey.',
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  keyed: true,
  intents: [
    'the sofa arrived today',
    'we received part of the order',
    'log a delivery from the supplier',
    'two chairs came, one damaged',
  ],
  input: z.strictObject({
    ...inOrder,
    receivedOn: CalendarDate.describe('The day it arrived.'),
    lines: z
      .array(
        z.strictObject({
          orderLineId: PurchaseOrderLineId.describe('From get_purchase_order.'),
          quantity: Quantity4.describe('Received in this delivery, above 0.'),
          note: z.string().max(2000).optional().describe('Damage or shortfall on this line.'),
        }),
      )
      .min(1)
      .max(LINES_PER_CALL),
    note: z.string().max(5000).optional().describe('About the delivery as a whole.'),
  }),
  output: PurchaseOrderWhole,
  errors: ['NOT_FOUND', 'PURCHASE_ORDER_WRONG_STATE', 'OVER_RECEIVED', 'VERSION_CONFLICT'],
  example: {
    ...EX,
    receivedOn: '2027-02-14',
    lines: [{ orderLineId: ORDER_EX.orderLineId, quantity: { amount4: '10000' }, note: 'One leg scuffed.' }],
    commandKey: '7d4f9e3a-0b5c-4a8d-9e2f-3c4d5e6f7a81',
  },
  handler: (ctx, input) => recordDelivery(ctx, input),
});

export const createPurchaseOrdersBySupplier = defineAction({
  name: 'create_purchase_orders_by_supplier',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'purchaseOrders',
  summary: 'Draft one purchase order per supplier from chosen lines or an accepted estimate, in one call.',
  description:
    'Groups the lines by their supplier and drafts one order each, at trade prices, with the delivery details given: from lineIds, or from estimateRevisionId (a decided estimate revision: its accepted pieces, at the quantities accepted). Lines with no supplier, no set trade price, archived, or already on a live order (unless orderAgain) are left out and named in skipped, never guessed. dryRun: true writes nothing and answers the orders it would make. Prefer it over create_purchase_order after the client accepts an estimate. Send a fresh commandKey.',
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  keyed: true,
  intents: [
    'order everything the client accepted',
    'raise purchase orders for each supplier',
    'split the accepted estimate into POs',
  ],
  input: z.strictObject({
    projectId: ProjectId,
    lineIds: z.array(LineId).min(1).max(LINES_PER_CALL).optional().describe('Schedule lines to order.'),
    estimateRevisionId: EstimateRevisionId.optional().describe('Or a decided estimate revision: its accepted pieces.'),
    dryRun: z.boolean().optional().describe('true: write nothing, answer the orders it would make.'),
    orderAgain: z.boolean().optional().describe('true: order lines already on a live order too.'),
    deliveryAddress: z.string().max(2000).optional().describe('Where the suppliers deliver, on every order.'),
    wantedBy: CalendarDate.nullable().optional().describe('The date wanted, on every order.'),
  }),
  output: OrdersBySupplier,
  errors: ['NOT_FOUND'],
  example: {
    projectId: EX.projectId,
    estimateRevisionId: ORDER_EX.revisionId,
    dryRun: true,
    wantedBy: '2027-02-15',
    commandKey: '8e5a0f4b-1c6d-4b9e-8f3a-4d5e6f7a8b92',
  },
  handler: (ctx, input) => ordersBySupplier(ctx, input),
});
