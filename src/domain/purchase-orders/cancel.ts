/** Cancelling an order: with a reason; once something was delivered, only the rest, with a shortfall note. */
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { claimRow } from '../kit/claim-row.js';
import { moveRevisionState } from '../kit/revisions.js';
import { changedMeanwhile, loadOrder, readWhole } from './draft.js';
import { PURCHASE_ORDER_REVISIONS } from './entity.js';
import type { PurchaseOrderRow } from './record.js';

export interface CancelInput {
  projectId: string;
  purchaseOrderId: string;
  reason: string;
  shortfallNote?: string | undefined;
}

/** Refuses a cancellation the order's state does not allow. */
function assertCancellable(order: PurchaseOrderRow, shortfallNote: string | undefined) {
  if (order.state === 'delivered' || order.state === 'cancelled') {
    throw new ServiceError(
      'PURCHASE_ORDER_WRONG_STATE',
      `Purchase order ${order.number} is ${order.state}; there is nothing left to cancel.`,
    );
  }
  if (order.state === 'partly_delivered' && !shortfallNote?.trim()) {
    throw new ServiceError(
      'PURCHASE_ORDER_WRONG_STATE',
      `Part of purchase order ${order.number} was already delivered: to cancel the rest, send a shortfallNote saying what will not come.`,
    );
  }
}

/** The question put to the person before a cancellation. */
export async function cancelQuestion(ctx: Pick<ActionContext, 'db'>, input: CancelInput) {
  const order = await loadOrder(ctx, input.projectId, input.purchaseOrderId);
  assertCancellable(order, input.shortfallNote);
  const what = order.state === 'partly_delivered' ? 'what is still to come on' : '';
  return `Cancel ${what} purchase order ${order.number}${order.state === 'draft' ? ' (a draft)' : ''}, because: ${input.reason.trim()}? ${order.current_revision_id ? 'Its issued revision becomes voided; tell the supplier. ' : ''}A cancelled order is closed for good.`.replace(
    '  ',
    ' ',
  );
}

export async function cancelOrder(ctx: ActionContext, input: CancelInput) {
  const order = await loadOrder(ctx, input.projectId, input.purchaseOrderId);
  assertCancellable(order, input.shortfallNote);
  // The order first: of two acts racing from the same version, the second waits here and is refused.
  const cols = {
    state: 'cancelled' as const,
    cancel_reason: input.reason.trim(),
    shortfall_note: input.shortfallNote?.trim() || null,
    cancelled_at: ctx.now,
  };
  await claimRow(ctx, 'purchase_orders', order, cols, changedMeanwhile(order.number));
  if (order.current_revision_id) {
    await moveRevisionState(ctx, PURCHASE_ORDER_REVISIONS, order.current_revision_id, 'current', 'voided');
  }
  ctx.audit({
    targetKind: 'purchase_order',
    targetId: order.id,
    projectId: order.project_id,
    summary: `Cancelled purchase order ${order.number}: ${input.reason.trim()}`,
    changes: { state: { from: order.state, to: 'cancelled' } },
  });
  return readWhole(ctx, input.projectId, order.id);
}
