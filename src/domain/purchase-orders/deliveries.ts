/**
 * Deliveries against an issued order: each one appended, checked line by line against what the current revision
 * ordered less what already came (never more), moving the order to partly_delivered, then delivered.
 */
import type { ActionContext } from '../../core/context.js';
import { type FieldProblem, ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { displayAmount } from '../../core/money.js';
import { claimRow } from '../kit/claim-row.js';
import { changedMeanwhile, deliveriesOf, loadOrder, readWhole, receivedByLine } from './draft.js';
import { PURCHASE_ORDER_DELIVERY_RECORD } from './record.js';
import { presentRevision } from './revisions.js';

export interface DeliveryInput {
  projectId: string;
  purchaseOrderId: string;
  receivedOn: string;
  note?: string | undefined;
  lines: ReadonlyArray<{ orderLineId: string; quantity: { amount4: string }; note?: string | undefined }>;
}

const qty = (n4: bigint) => displayAmount(n4, 4).replace(/\.?0+$/, '');

/** What each line of the current revision still awaits, by order line id, and how it is named. */
async function outstanding(ctx: ActionContext, orderId: string, revisionId: string) {
  const revision = await presentRevision(ctx, revisionId);
  const received = receivedByLine(await deliveriesOf(ctx.db, orderId));
  return new Map(
    revision.content.lines.map((l) => [
      l.orderLineId,
      {
        name: l.reference ?? l.description,
        left4: BigInt(l.quantity.amount4) - (received.get(l.orderLineId) ?? 0n),
      },
    ]),
  );
}

/** Records one delivery; refuses a line not on the order, a line twice, or more than is still to come. */
export async function recordDelivery(ctx: ActionContext, input: DeliveryInput) {
  const order = await loadOrder(ctx, input.projectId, input.purchaseOrderId);
  if ((order.state !== 'issued' && order.state !== 'partly_delivered') || !order.current_revision_id) {
    throw new ServiceError(
      'PURCHASE_ORDER_WRONG_STATE',
      order.state === 'draft'
        ? `Purchase order ${order.number} was never issued; issue_purchase_order_revision first.`
        : `Purchase order ${order.number} is ${order.state}; nothing more is to be delivered on it.`,
    );
  }
  const left = await outstanding(ctx, order.id, order.current_revision_id);
  const problems: FieldProblem[] = [];
  const over: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const [i, l] of input.lines.entries()) {
    const path = `lines.${i}`;
    const line = left.get(l.orderLineId);
    if (!line) problems.push({ path: `${path}.orderLineId`, message: 'Not a line of the issued order.' });
    else if (seen.has(l.orderLineId)) problems.push({ path: `${path}.orderLineId`, message: 'Named twice.' });
    else if (BigInt(l.quantity.amount4) <= 0n) problems.push({ path: `${path}.quantity`, message: 'Must be above 0.' });
    else if (BigInt(l.quantity.amount4) > line.left4) {
      over.push({
        path: `${path}.quantity`,
        message: `${line.name}: ${qty(line.left4)} still to come, ${qty(BigInt(l.quantity.amount4))} recorded.`,
      });
    }
    seen.add(l.orderLineId);
  }
  if (problems.length) {
    throw new ServiceError('VALIDATION_FAILED', 'Some delivered lines are not valid; see errors[].', {
      errors: problems,
    });
  }
  if (over.length) {
    throw new ServiceError(
      'OVER_RECEIVED',
      `${over.length} line${over.length === 1 ? '' : 's'} would receive more than ordered less already received; record at most what is outstanding.`,
      { errors: over },
    );
  }
  for (const l of input.lines) left.get(l.orderLineId)!.left4 -= BigInt(l.quantity.amount4);
  const complete = [...left.values()].every((l) => l.left4 === 0n);
  const row = PURCHASE_ORDER_DELIVERY_RECORD.newRow(
    {
      purchaseOrderId: order.id,
      revisionId: order.current_revision_id,
      receivedOn: input.receivedOn,
      received: input.lines.map((l) => ({ orderLineId: l.orderLineId, quantity: l.quantity, note: l.note ?? '' })),
      note: input.note ?? '',
      recordedBy: ctx.caller!.memberId,
    },
    { id: newId(), ownerId: order.project_id, now: ctx.now },
  );
  await ctx.db.insertInto('purchase_order_deliveries').values(row).execute();
  const state = complete ? 'delivered' : 'partly_delivered';
  // The order's version guards the check above: a delivery recorded at the same moment loses, never over-receives.
  await claimRow(ctx, 'purchase_orders', order, { state }, changedMeanwhile(order.number));
  ctx.audit({
    targetKind: 'purchase_order_delivery',
    targetId: row.id,
    projectId: order.project_id,
    summary: `Recorded a delivery of ${input.lines.length} line${input.lines.length === 1 ? '' : 's'} on purchase order ${order.number} (${state.replace('_', ' ')})`,
    changes: { state: { from: order.state, to: state } },
  });
  return readWhole(ctx, input.projectId, order.id);
}
