/**
 * Property: whatever sequence of edits, issues, deliveries and cancellations a studio sends, through the real server,
 * an order only moves along draft → issued → partly_delivered → delivered (or to cancelled, for good), no line ever
 * receives more than it ordered, and an issued revision's content and digest never change. The schedule lines
 * agree: a line's ordering never shows more received than ordered, and its state is what its figures say.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Trpc } from '../helpers/clients.js';
import { uuid } from '../helpers/ids.js';
import { openTestApp } from '../helpers/in-process.js';
import { atelierDraft, type OrderingProject, orderingProject } from './fixture.js';

let owner: Trpc;
let p: OrderingProject;
openTestApp((opened) => ({ owner } = opened));
beforeAll(async () => {
  p = await orderingProject(owner, 'Order states');
});

const NEXT: Record<string, readonly string[]> = {
  draft: ['draft', 'issued', 'cancelled'],
  issued: ['issued', 'partly_delivered', 'delivered', 'cancelled'],
  partly_delivered: ['partly_delivered', 'delivered', 'cancelled'],
  delivered: ['delivered'],
  cancelled: ['cancelled'],
};
const REFUSALS = ['PURCHASE_ORDER_WRONG_STATE', 'OVER_RECEIVED', 'VALIDATION_FAILED'];

const Step = fc.oneof(
  fc.record({ kind: fc.constant('edit' as const), quantity: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('issue' as const) }),
  fc.record({ kind: fc.constant('deliver' as const), line: fc.nat(1), quantity: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant('cancel' as const), withNote: fc.boolean() }),
);
type Step = typeof Step extends fc.Arbitrary<infer S> ? S : never;

async function apply(id: string, step: Step) {
  const order = await owner.purchaseOrders.getPurchaseOrder.query({ projectId: p.projectId, purchaseOrderId: id });
  const at = { projectId: p.projectId, purchaseOrderId: id, expectedVersion: order.version };
  const line = order.lines[step.kind === 'deliver' ? step.line : 0]!;
  switch (step.kind) {
    case 'edit':
      return owner.purchaseOrders.updatePurchaseOrderDraft.mutate({
        ...at,
        lines: [{ orderLineId: line.id, quantity: { amount4: `${step.quantity}0000` } }],
      });
    case 'issue':
      return owner.purchaseOrders.issuePurchaseOrderRevision.mutate({ ...at, confirm: true });
    case 'deliver':
      return owner.purchaseOrders.recordPurchaseOrderDelivery.mutate({
        projectId: p.projectId,
        purchaseOrderId: id,
        receivedOn: '2027-02-10',
        lines: [{ orderLineId: line.id, quantity: { amount4: `${step.quantity}0000` } }],
        commandKey: uuid(),
      });
    case 'cancel':
      return owner.purchaseOrders.cancelPurchaseOrder.mutate({
        ...at,
        reason: 'Property check.',
        ...(step.withNote ? { shortfallNote: 'The rest will not come.' } : {}),
        confirm: true,
      });
  }
}

/** A line's ordering: received never over ordered, and the state its figures say (on_draft needs nothing ordered). */
async function expectOrderingAgrees(lineId: string) {
  const { ordering } = await owner.schedule.getScheduleLine.query({ projectId: p.projectId, lineId });
  const [ordered, received] = [BigInt(ordering.ordered.amount4), BigInt(ordering.received.amount4)];
  expect(received).toBeLessThanOrEqual(ordered);
  const expected =
    ordered === 0n
      ? ['not_ordered', 'on_draft']
      : [received === 0n ? 'ordered' : received < ordered ? 'partly_received' : 'received'];
  expect(expected).toContain(ordering.state);
}

describe('purchase order states', () => {
  it('reach no illegal state, never over-receive, never change an issued revision', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(Step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const draft = await atelierDraft(owner, p);
        const frozen = new Map<string, string>();
        let state = draft.state as string;
        for (const step of steps) {
          const code = await apply(draft.id, step).then(
            () => 'ok',
            (e: { data?: { serviceCode?: string } }) => e.data?.serviceCode,
          );
          if (code !== 'ok') expect(REFUSALS).toContain(code);
          const order = await owner.purchaseOrders.getPurchaseOrder.query({
            projectId: p.projectId,
            purchaseOrderId: draft.id,
          });
          expect(NEXT[state]).toContain(order.state);
          state = order.state;
          const revisions = await owner.purchaseOrders.listPurchaseOrderRevisions.query({
            projectId: p.projectId,
            purchaseOrderId: draft.id,
          });
          for (const r of revisions.items) {
            const text = JSON.stringify([r.digest, r.content, r.tradeTotals]);
            expect(frozen.get(r.id) ?? text).toBe(text);
            frozen.set(r.id, text);
          }
          const current = revisions.items.find((r) => r.id === order.currentRevisionId);
          for (const l of current?.content.lines ?? []) {
            const received = order.lines.find((x) => x.id === l.orderLineId)?.received.amount4 ?? '0';
            expect(BigInt(received)).toBeLessThanOrEqual(BigInt(l.quantity.amount4));
          }
          for (const l of order.lines) await expectOrderingAgrees(l.lineId);
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
