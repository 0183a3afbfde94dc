/** Reading a purchase order: the order, its active lines with their figures, and what each line has received. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { sumTaxed } from '../../core/taxed-lines.js';
import { inProject } from '../kit/in-project.js';
import { figuresOf, lineMoney } from '../kit/line-money.js';
import {
  PURCHASE_ORDER_DELIVERY_RECORD,
  PURCHASE_ORDER_LINE_RECORD,
  PURCHASE_ORDER_RECORD,
  type PurchaseOrderDeliveryRow,
  type PurchaseOrderLineRow,
  type PurchaseOrderRow,
} from './record.js';

type Reader = Pick<ActionContext, 'db'>;

/** An order of the project, or NOT_FOUND. */
export async function loadOrder(ctx: Reader, projectId: string, purchaseOrderId: string) {
  const row = await inProject(ctx.db, 'purchase_orders', projectId, purchaseOrderId);
  if (!row) throw new ServiceError('NOT_FOUND', `No purchase order ${purchaseOrderId} exists in this project.`);
  return row;
}

/** Refuses a change to the draft once deliveries have begun, or of a closed order. */
export function assertEditable(order: PurchaseOrderRow) {
  if (order.state === 'draft' || order.state === 'issued') return;
  throw new ServiceError(
    'PURCHASE_ORDER_WRONG_STATE',
    order.state === 'partly_delivered'
      ? `Purchase order ${order.number} has deliveries recorded, so what it orders no longer changes; cancel the rest (cancel_purchase_order with a shortfallNote) and order again.`
      : `Purchase order ${order.number} is ${order.state}, so it no longer changes; create_purchase_order starts a new one.`,
  );
}

/** The refusal of an act that lost a race for the order. */
export const changedMeanwhile = (number: number) =>
  `Purchase order ${number} changed meanwhile; read it again (get_purchase_order) and decide again.`;

/** The active lines of some orders, in their order. */
export async function activeLines(db: Kysely<Database>, orderIds: readonly string[]) {
  if (!orderIds.length) return [];
  return db
    .selectFrom('purchase_order_lines')
    .selectAll()
    .where('purchase_order_id', 'in', orderIds)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function deliveriesOf(db: Kysely<Database>, orderId: string) {
  return db
    .selectFrom('purchase_order_deliveries')
    .selectAll()
    .where('purchase_order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** What each order line received over the deliveries, scale 4. */
export function receivedByLine(deliveries: readonly PurchaseOrderDeliveryRow[]) {
  const received = new Map<string, bigint>();
  for (const d of deliveries) {
    for (const r of PURCHASE_ORDER_DELIVERY_RECORD.present(d, {}).received) {
      received.set(r.orderLineId, (received.get(r.orderLineId) ?? 0n) + BigInt(r.quantity.amount4));
    }
  }
  return received;
}

const figuresOfLine = (l: PurchaseOrderLineRow) => lineMoney(l.quantity4, l.trade4, l.tax_rate4, l.currency);

/** An order line as the API shows it, with its trade figures and what it received. */
export function presentLine(row: PurchaseOrderLineRow, received: ReadonlyMap<string, bigint>) {
  const f = figuresOfLine(row);
  const c = row.currency as Currency;
  return PURCHASE_ORDER_LINE_RECORD.present(row, {
    tradeFigures: figuresOf(f, c),
    received: { amount4: (received.get(row.id) ?? 0n).toString() },
  });
}

/** The totals issuing would freeze: per line rounded once, then summed. */
export const draftTotals = (lines: readonly PurchaseOrderLineRow[]) => sumTaxed(lines.map(figuresOfLine));

export async function supplierName(ctx: Pick<ActionContext, 'queryRow'>, supplierId: string) {
  const s = await ctx.queryRow<{ name: string }>('SELECT name FROM suppliers WHERE id = ?', supplierId);
  return s?.name ?? '';
}

/** An order as lists show it: the record, its supplier's name and its draft totals. */
export function presentOrder(order: PurchaseOrderRow, lines: readonly PurchaseOrderLineRow[], supplier: string) {
  return PURCHASE_ORDER_RECORD.present(order, {
    supplierName: supplier,
    tradeTotals: figuresOf(draftTotals(lines), order.currency),
  });
}

/** An order whole: with its active lines (and what each received) and its deliveries. */
export function presentWhole(
  order: PurchaseOrderRow,
  lines: readonly PurchaseOrderLineRow[],
  deliveries: readonly PurchaseOrderDeliveryRow[],
  supplier: string,
) {
  const received = receivedByLine(deliveries);
  return {
    ...presentOrder(order, lines, supplier),
    lines: lines.map((l) => presentLine(l, received)),
    deliveries: deliveries.map((d) => PURCHASE_ORDER_DELIVERY_RECORD.present(d, {})),
  };
}

/** A presenter of one order's rows whose lines, deliveries and supplier name are read once, for versionedUpdate. */
export async function wholePresenter(ctx: Pick<ActionContext, 'db' | 'queryRow'>, order: PurchaseOrderRow) {
  const lines = await activeLines(ctx.db, [order.id]);
  const deliveries = await deliveriesOf(ctx.db, order.id);
  const supplier = await supplierName(ctx, order.supplier_id);
  return (row: PurchaseOrderRow) => presentWhole(row, lines, deliveries, supplier);
}

/** Reads an order whole, as get_purchase_order answers it. */
export async function readWhole(ctx: Pick<ActionContext, 'db' | 'queryRow'>, projectId: string, orderId: string) {
  const order = await loadOrder(ctx, projectId, orderId);
  return (await wholePresenter(ctx, order))(order);
}
