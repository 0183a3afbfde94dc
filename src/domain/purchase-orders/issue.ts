/** Issuing a purchase order: its draft frozen into revision N+1 (kit/revisions.ts), what the supplier is sent. */
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { displayAmount, minorUnits } from '../../core/money.js';
import { figuresOf, lineMoney, moneyOf } from '../kit/line-money.js';
import { issueRevision, nextRevisionNumber } from '../kit/revisions.js';
import { newId } from '../../core/ids.js';
import { claimRow } from '../kit/claim-row.js';
import { activeLines, changedMeanwhile, draftTotals, loadOrder, supplierName } from './draft.js';
import { PURCHASE_ORDER_REVISIONS } from './entity.js';
import { orderHead } from './orders.js';
import type { PurchaseOrderLineRow, PurchaseOrderRow } from './record.js';
import { presentRevision } from './revisions.js';
import type { PurchaseOrderContent } from './shapes.js';

type Reader = Pick<ActionContext, 'db' | 'queryRow'>;

/** What the supplier reads: the studio, the supplier, the lines at trade prices, totals and delivery details. */
function contentOf(
  order: PurchaseOrderRow,
  lines: readonly PurchaseOrderLineRow[],
  names: { studio: string; supplier: string },
  number: number,
  issuedAt: string,
): PurchaseOrderContent {
  const c = order.currency;
  return {
    purchaseOrderId: order.id,
    orderNumber: order.number,
    revisionNumber: number,
    studioName: names.studio,
    supplier: { id: order.supplier_id, name: names.supplier },
    supplierReference: order.supplier_reference,
    deliveryAddress: order.delivery_address,
    wantedBy: order.wanted_by,
    notes: order.notes,
    currency: c,
    issuedAt,
    lines: lines.map((l) => {
      const f = lineMoney(l.quantity4, l.trade4, l.tax_rate4, c);
      return {
        orderLineId: l.id,
        reference: l.reference,
        productCode: l.product_code,
        description: l.description,
        quantity: { amount4: l.quantity4, unit: l.unit_name },
        tradePrice: moneyOf(BigInt(l.trade4), c),
        taxRate: { ratio4: l.tax_rate4 },
        tradeFigures: figuresOf(f, c),
      };
    }),
    tradeTotals: figuresOf(draftTotals(lines), c),
  };
}

/** The next revision of an order as an issue would freeze it now; refuses one that orders nothing or may not change. */
async function nextRevision(ctx: Reader, now: string, projectId: string, orderId: string) {
  const order = await loadOrder(ctx, projectId, orderId);
  if (order.state !== 'draft' && order.state !== 'issued') {
    throw new ServiceError(
      'PURCHASE_ORDER_WRONG_STATE',
      `Purchase order ${order.number} is ${order.state.replace('_', ' ')}; only a draft or an issued order with nothing delivered is issued again.`,
    );
  }
  const lines = await activeLines(ctx.db, [order.id]);
  if (!lines.length) {
    throw new ServiceError('VALIDATION_FAILED', 'The order has no lines; add_purchase_order_lines first.', {
      errors: [{ path: 'purchaseOrderId', message: 'Nothing to order.' }],
    });
  }
  const number = await nextRevisionNumber(ctx.db, PURCHASE_ORDER_REVISIONS, order.id);
  const head = await orderHead(ctx, projectId);
  const names = { studio: head.studio_name, supplier: await supplierName(ctx, order.supplier_id) };
  return { order, content: contentOf(order, lines, names, number, now) };
}

const shown = (m: { amount4: string; currency: string }) =>
  `${m.currency} ${displayAmount(BigInt(m.amount4), minorUnits(m.currency))}`;

/** The question put to the person before an issue: what the supplier will be asked for, in figures. */
export async function issueQuestion(ctx: Reader, input: { projectId: string; purchaseOrderId: string }) {
  const { order, content } = await nextRevision(ctx, new Date().toISOString(), input.projectId, input.purchaseOrderId);
  const n = content.lines.length;
  return [
    `Issue revision ${content.revisionNumber} of purchase order ${order.number} to ${content.supplier.name}:`,
    ` ${n} line${n === 1 ? '' : 's'} for ${shown(content.tradeTotals.gross)} including tax of ${shown(content.tradeTotals.tax)}.`,
    order.current_revision_id ? ` Revision ${content.revisionNumber - 1} will be superseded.` : '',
    ' An issued revision never changes.',
  ].join('');
}

/** Freezes the order into its next revision, superseding the current one; the order becomes issued. */
export async function issueOrderRevision(ctx: ActionContext, projectId: string, orderId: string) {
  const { order, content } = await nextRevision(ctx, ctx.now, projectId, orderId);
  // The order first: of two issues racing from the same version, the second waits here and is refused.
  const revisionId = newId();
  await claimRow(
    ctx,
    'purchase_orders',
    order,
    { state: 'issued', current_revision_id: revisionId, revision_count: content.revisionNumber },
    changedMeanwhile(order.number),
  );
  const revision = await issueRevision(ctx, PURCHASE_ORDER_REVISIONS, {
    id: revisionId,
    parentId: order.id,
    projectId,
    number: content.revisionNumber,
    validUntil: null,
    content,
    columns: {
      currency: content.currency,
      net4: content.tradeTotals.net.amount4,
      tax4: content.tradeTotals.tax.amount4,
      gross4: content.tradeTotals.gross.amount4,
    },
  });
  ctx.audit({
    targetKind: 'purchase_order_revision',
    targetId: revision.id,
    projectId,
    summary: `Issued revision ${content.revisionNumber} of purchase order ${order.number} to ${content.supplier.name}`,
    changes: { digest: { from: null, to: revision.digest }, state: { from: order.state, to: 'issued' } },
  });
  return presentRevision(ctx, revision.id);
}
