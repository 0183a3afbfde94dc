import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { PURCHASE_ORDER } from '../../src/domain/purchase-orders/entity.js';
import { LINES_PER_CALL } from '../../src/domain/purchase-orders/lines.js';
import * as orders from '../../src/domain/purchase-orders/orders.js';
import { PURCHASE_ORDER_RECORD } from '../../src/domain/purchase-orders/record.js';
import { EXAMPLE } from '../projects/shapes.js';
import { ProjectId, PurchaseOrderId, PurchaseOrderLineId } from '../shared/refs.js';
import {
  NewPurchaseOrderLine,
  ORDER_EX,
  PurchaseOrder,
  PurchaseOrderLinePatch,
  PurchaseOrderWhole,
} from './records.js';

const inOrder = { projectId: ProjectId, purchaseOrderId: PurchaseOrderId.describe('From list_purchase_orders.') };
const EX = { projectId: EXAMPLE.projectId, purchaseOrderId: ORDER_EX.purchaseOrderId };
const orderAgain = z
  .boolean()
  .optional()
  .describe('true: order a line even when it is already on another live (not cancelled) order.');

export const listPurchaseOrders = defineAction({
  name: 'list_purchase_orders',
  kind: 'procedure',
  effect: 'query',
  domain: 'purchaseOrders',
  summary: "List a project's purchase orders to suppliers, with their state and trade totals.",
  description:
    "The project's purchase orders by number (or sort by updatedAt; '-' for descending), each with its supplier, state (draft, issued, partly_delivered, delivered, cancelled), delivery details, how many revisions were issued and its draft totals at trade prices (withheld without pricing:read). Filter by state or supplierId. get_purchase_order shows an order's lines and deliveries.",
  scope: 'procurement:read',
  intents: [
    'what have we ordered from suppliers',
    'show the purchase orders',
    'which orders are still to be delivered',
  ],
  input: orders.ORDER_LISTING.input,
  output: page(PurchaseOrder),
  errors: ['NOT_FOUND'],
  example: { projectId: EX.projectId, state: 'issued' },
  handler: (ctx, input) => orders.listOrders(ctx, input),
});

export const getPurchaseOrder = defineAction({
  name: 'get_purchase_order',
  kind: 'procedure',
  effect: 'query',
  domain: 'purchaseOrders',
  summary: 'Read one purchase order with its lines, what each has received, its deliveries and its version.',
  description:
    "The order's supplier, terms, state and draft totals, with each active line (the schedule line it orders, quantity, trade price and figures, quantity received so far) and every delivery recorded. Its version is what update_purchase_order_draft, add_purchase_order_lines, remove_purchase_order_lines, issue_purchase_order_revision and cancel_purchase_order take as expectedVersion. What the supplier was sent is in list_purchase_order_revisions.",
  scope: 'procurement:read',
  intents: ['open the purchase order', 'how much of the order has arrived', 'check what we ordered from the maker'],
  input: z.strictObject(inOrder),
  output: PurchaseOrderWhole,
  errors: ['NOT_FOUND'],
  example: EX,
  handler: (ctx, input) => orders.getOrder(ctx, input.projectId, input.purchaseOrderId),
});

export const createPurchaseOrder = defineAction({
  name: 'create_purchase_order',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'purchaseOrders',
  summary: 'Start a draft purchase order to one supplier for some of a project’s lines, at trade prices.',
  description:
    "Makes a draft order to one supplier in the project's currency, numbered next in the project, optionally with lines: each names a schedule line (lineId) whose supplier is this one and copies, unless sent, its code, product code, heading, quantity, trade price (never the client price or markup) and the studio's tax rate. A line with another supplier, no set trade price, or already on a live order (unless orderAgain) is refused by name. Nothing reaches the supplier until issue_purchase_order_revision. To order many lines from several suppliers at once, prefer create_purchase_orders_by_supplier. Send a fresh commandKey.",
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  keyed: true,
  intents: ['order the sofa from the maker', 'raise a PO for the lighting', 'start a purchase order to a supplier'],
  input: z.strictObject({
    projectId: ProjectId,
    ...PURCHASE_ORDER_RECORD.createInput.shape,
    lines: z.array(NewPurchaseOrderLine).max(LINES_PER_CALL).optional().describe('Schedule lines to order, in order.'),
    orderAgain,
  }),
  output: PurchaseOrderWhole,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EX.projectId,
    supplierId: ORDER_EX.supplierId,
    deliveryAddress: 'Harbour House, 1 Quay Street, Falmouth TR11 3HH',
    wantedBy: '2027-02-15',
    supplierReference: 'Quote Q-2291',
    lines: [{ lineId: ORDER_EX.lineId }],
    commandKey: '6c3e8d2f-9a4b-4f7c-8d1e-2b3c4d5e6f70',
  },
  handler: (ctx, { projectId, lines, orderAgain: again, ...terms }) =>
    orders.createOrder(ctx, projectId, terms, lines, again === true),
});

export const updatePurchaseOrderDraft = defineAction({
  name: 'update_purchase_order_draft',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'purchaseOrders',
  summary: "Change a purchase order's delivery details and notes, or the quantity and trade price of its lines.",
  description:
    'A merge patch of the terms (deliveryAddress, wantedBy, supplierReference, notes) and, in lines, of the lines it orders (by orderLineId from get_purchase_order: description, reference, productCode, quantity, tradePrice, taxRate), with expectedVersion from your last read. What was already issued never changes: issue again to send the change. Refused once deliveries began or the order is delivered or cancelled (PURCHASE_ORDER_WRONG_STATE). The supplier cannot change: cancel and order from another.',
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PURCHASE_ORDER, idField: 'purchaseOrderId' },
  intents: ['change the delivery date on the order', 'order two instead of one', 'deliver the PO to the site instead'],
  input: z.strictObject({
    ...inOrder,
    ...PURCHASE_ORDER_RECORD.patchInput.shape,
    lines: z.array(PurchaseOrderLinePatch).max(LINES_PER_CALL).optional().describe('Changes to lines it orders.'),
  }),
  output: PurchaseOrderWhole,
  errors: ['NOT_FOUND', 'PURCHASE_ORDER_WRONG_STATE'],
  example: {
    ...EX,
    expectedVersion: 3,
    wantedBy: '2027-03-01',
    lines: [{ orderLineId: ORDER_EX.orderLineId, quantity: { amount4: '20000' } }],
  },
  handler: (ctx, { projectId, purchaseOrderId, lines, ...patch }) =>
    orders.updateOrderDraft(ctx, projectId, purchaseOrderId, patch, lines),
});

export const addPurchaseOrderLines = defineAction({
  name: 'add_purchase_order_lines',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'purchaseOrders',
  summary: 'Add more schedule lines from the same supplier to a purchase order.',
  description:
    "Adds schedule lines to the order, after the ones it has. Each must name the order's supplier and have a set trade price (or send tradePrice); it copies, unless sent, the line's code, product code, heading, quantity and trade price and the studio's tax rate. A line already on this order, archived, or on another live order (unless orderAgain) is refused by name. Needs expectedVersion; refused once deliveries began (PURCHASE_ORDER_WRONG_STATE).",
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PURCHASE_ORDER, idField: 'purchaseOrderId' },
  intents: ['add the side tables to the order', 'put another item on the PO', 'order this line too'],
  input: z.strictObject({
    ...inOrder,
    lines: z.array(NewPurchaseOrderLine).min(1).max(LINES_PER_CALL).describe('Schedule lines to order, in order.'),
    orderAgain,
  }),
  output: PurchaseOrderWhole,
  errors: ['NOT_FOUND', 'ARCHIVED', 'PURCHASE_ORDER_WRONG_STATE'],
  example: { ...EX, expectedVersion: 2, lines: [{ lineId: ORDER_EX.lineId, quantity: { amount4: '40000' } }] },
  handler: (ctx, input) =>
    orders.addOrderLines(ctx, input.projectId, input.purchaseOrderId, input.lines, input.orderAgain === true),
});

export const removePurchaseOrderLines = defineAction({
  name: 'remove_purchase_order_lines',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'purchaseOrders',
  summary: 'Take some lines off a purchase order before it is delivered.',
  description:
    'Removes lines from the order (by orderLineId from get_purchase_order): archived, never deleted, and revisions already issued keep them; the schedule lines are untouched. Issue again to tell the supplier. Needs expectedVersion; refused once deliveries began (PURCHASE_ORDER_WRONG_STATE).',
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PURCHASE_ORDER, idField: 'purchaseOrderId' },
  intents: ['take the lamp off the order', 'we no longer need this from the supplier', 'drop a line from the PO'],
  input: z.strictObject({
    ...inOrder,
    orderLineIds: z.array(PurchaseOrderLineId).min(1).max(LINES_PER_CALL).describe('From get_purchase_order.'),
  }),
  output: PurchaseOrderWhole,
  errors: ['NOT_FOUND', 'PURCHASE_ORDER_WRONG_STATE'],
  example: { ...EX, expectedVersion: 4, orderLineIds: [ORDER_EX.orderLineId] },
  handler: (ctx, input) => orders.removeOrderLines(ctx, input.projectId, input.purchaseOrderId, input.orderLineIds),
});
