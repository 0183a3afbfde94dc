/** An order's lines: made from schedule lines (at their trade price), changed, and removed (archived). */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { LineRow } from '../schedule/record.js';
import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { type FieldProblem, ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { archiveDocumentLines, type DocumentLinesKind, patchDocumentLines } from '../kit/document-lines.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { loadLine, presentationFor } from '../schedule/lines.js';
import { PURCHASE_ORDER_LINE_RECORD, type PurchaseOrderLineRow } from './record.js';

export type NewOrderLine = CreateFields<typeof PURCHASE_ORDER_LINE_RECORD.spec.fields>;
export type OrderLinePatch = PatchFields<typeof PURCHASE_ORDER_LINE_RECORD.spec.fields> & { orderLineId: string };

/** At most this many lines are added, changed or removed in one call. */
export const LINES_PER_CALL = 500;

/** What a new line needs to know of its order. */
export interface OrderFor {
  id: string;
  project_id: string;
  supplier_id: string;
  currency: Currency;
  taxRate4: string;
}

/** Schedule lines already on a live (not cancelled) order other than `exceptOrderId`: line id → that order's number. */
export async function onLiveOrders(db: Kysely<Database>, lineIds: readonly string[], exceptOrderId?: string) {
  if (!lineIds.length) return new Map<string, number>();
  let qb = db
    .selectFrom('purchase_order_lines as l')
    .innerJoin('purchase_orders as o', 'o.id', 'l.purchase_order_id')
    .select(['l.line_id', 'o.number'])
    .where('l.line_id', 'in', lineIds)
    .where('l.archived_at', 'is', null)
    .where('o.state', '!=', 'cancelled');
  if (exceptOrderId) qb = qb.where('o.id', '!=', exceptOrderId);
  return new Map((await qb.execute()).map((r) => [r.line_id, r.number]));
}

async function nextPosition(db: Kysely<Database>, orderId: string) {
  const last = await db
    .selectFrom('purchase_order_lines')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('purchase_order_id', '=', orderId)
    .executeTakeFirst();
  return Number(last?.p ?? 0) + 1;
}

const named = (line: LineRow) => line.code ?? line.heading;

/** Why a schedule line cannot go on this order as sent, or null when it can. */
function problemWith(line: LineRow, sent: NewOrderLine, order: OrderFor, taken: Set<string>, elsewhere?: number) {
  if (line.archived_at) return `${named(line)} is archived; restore it before ordering it.`;
  if (line.supplier_id !== order.supplier_id) {
    return `${named(line)} names ${line.supplier_id ? 'another supplier' : 'no supplier'}; an order has one supplier: set the line's supplier (update_schedule_line) or order it on that supplier's order.`;
  }
  if (!sent.tradePrice && (line.trade_state !== 'set' || line.trade4 === null)) {
    return `${named(line)} has no set trade price (${line.trade_state}); send tradePrice or set it on the line first.`;
  }
  if (taken.has(line.id)) return `${named(line)} is already on this order; change its quantity instead.`;
  if (elsewhere !== undefined) {
    return `${named(line)} is already on live purchase order ${elsewhere}; send orderAgain: true to order it twice.`;
  }
  return null;
}

/**
 * New order lines from schedule lines: what is not sent is copied from the line as it is now (code, product code,
 * heading, quantity, unit, trade price) and the studio's tax rate; never its client price or markup. Every line that
 * cannot be ordered as sent is named in one refusal, and nothing is written.
 */
export async function draftLines(
  ctx: ActionContext,
  order: OrderFor,
  sent: readonly NewOrderLine[],
  options: { orderAgain?: boolean | undefined; insert?: boolean } = {},
): Promise<PurchaseOrderLineRow[]> {
  const onThis = await ctx.db
    .selectFrom('purchase_order_lines')
    .select('line_id')
    .where('purchase_order_id', '=', order.id)
    .where('archived_at', 'is', null)
    .execute();
  const taken = new Set(onThis.map((o) => o.line_id));
  const elsewhere = options.orderAgain
    ? new Map<string, number>()
    : await onLiveOrders(
        ctx.db,
        sent.map((s) => s.lineId),
        order.id,
      );
  const problems: FieldProblem[] = [];
  const rows: PurchaseOrderLineRow[] = [];
  let position = await nextPosition(ctx.db, order.id);
  for (const [i, s] of sent.entries()) {
    const line = await loadLine(ctx, order.project_id, s.lineId);
    const problem = problemWith(line, s, order, taken, elsewhere.get(line.id));
    if (problem) {
      problems.push({ path: `lines.${i}.lineId`, message: problem });
      continue;
    }
    taken.add(line.id);
    const presentation = await presentationFor(ctx, order.project_id, [line]);
    const fromLine: NewOrderLine = {
      lineId: line.id,
      reference: line.code,
      productCode: line.product_code,
      description: line.heading,
      quantity: { amount4: line.quantity4 },
      tradePrice: { amount4: line.trade4 ?? '0' },
      taxRate: { ratio4: order.taxRate4 },
    };
    const given = Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));
    rows.push(
      PURCHASE_ORDER_LINE_RECORD.newRow(
        {
          ...fromLine,
          ...given,
          lineId: line.id,
          purchaseOrderId: order.id,
          position: position++,
          unitName: presentation.unitName(line.unit_id),
          currency: order.currency,
        },
        { id: newId(), ownerId: order.project_id, now: ctx.now },
      ),
    );
  }
  if (problems.length) {
    const n = problems.length;
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${n} line${n === 1 ? '' : 's'} cannot be ordered as sent; errors[] names each and what to do.`,
      { errors: problems },
    );
  }
  if (rows.length && options.insert !== false) await ctx.db.insertInto('purchase_order_lines').values(rows).execute();
  return rows;
}

/** An order's lines, for the document-lines kit. */
const ORDER_LINES: DocumentLinesKind<PurchaseOrderLineRow> = {
  table: 'purchase_order_lines',
  parentColumn: 'purchase_order_id',
  patchColumns: (patch) => PURCHASE_ORDER_LINE_RECORD.patchColumns(patch),
  missing: (order, id) => `Purchase order ${order.number} has no line ${id} (get_purchase_order lists them).`,
};

/** Changes what the order says about some of its lines; each changed line's version goes up. */
export const patchLines = (
  ctx: ActionContext,
  order: { id: string; number: number },
  patches: readonly OrderLinePatch[],
) =>
  patchDocumentLines(
    ctx,
    ORDER_LINES,
    order,
    patches.map(({ orderLineId, ...patch }) => ({ id: orderLineId, patch })),
  );

/** Removes lines from the order: archived, never deleted (an issued revision may name them). */
export const archiveLines = (ctx: ActionContext, order: { id: string; number: number }, ids: readonly string[]) =>
  archiveDocumentLines(ctx, ORDER_LINES, order, ids);
