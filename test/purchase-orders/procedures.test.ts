/**
 * The purchaseOrders domain (11 procedures) through the typed tRPC client and MCP call_action: drafts at trade
 * prices with exact per-line figures, issued as frozen revisions (kit/revisions), deliveries never over what is still
 * to come, cancelling with a reason (and a shortfall note once part came), orders drafted by supplier from lines or a
 * decided estimate, and what callers without pricing:read or procurement:write get.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { allPages, callAction, codeOf } from '../helpers/calls.js';
import { type Trpc, trpc } from '../helpers/clients.js';
import { floatsIn, memberWithToken, studioOfTheirOwn } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { leakForms } from '../helpers/leaks.js';
import { atelierDraft, issuedOrder, type OrderingProject, orderingProject } from './fixture.js';
import { recordDecision } from '../estimates/fixture.js';
import { gbp } from '../helpers/money.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let p: OrderingProject;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  p = await orderingProject(owner);
});

const po = () => owner.purchaseOrders;

describe('a draft, at trade prices', () => {
  it('copies the trade price, never the client price, and rounds each line once', async () => {
    const draft = await atelierDraft(owner, p);
    expect(draft).toMatchObject({ state: 'draft', supplierId: p.atelier.id, revisionCount: 0, version: 1 });
    const [armchair, cushion] = draft.lines;
    expect(armchair).toMatchObject({
      description: 'Velvet armchair',
      quantity: { amount4: '30000' },
      tradePrice: gbp('333333'),
      tradeFigures: { net: gbp('1000000'), tax: gbp('200000'), gross: gbp('1200000') }, // 3 × 33.3333 = 99.9999 → 100.00
      received: { amount4: '0' },
    });
    // 2.5 × 12.3450 = 30.8625 → 30.86; 5 % of 30.86 = 1.543 → 1.54.
    expect(cushion!.tradeFigures).toEqual({ net: gbp('308600'), tax: gbp('15400'), gross: gbp('324000') });
    expect(draft.tradeTotals).toEqual({ net: gbp('1308600'), tax: gbp('215400'), gross: gbp('1524000') });
    expect(floatsIn(draft)).toEqual([]);
    const viaMcp = await callAction(mcp, 'get_purchase_order', { projectId: p.projectId, purchaseOrderId: draft.id });
    expect(viaMcp.result.lines.map((l: { lineId: string }) => l.lineId)).toEqual([p.armchair.id, p.cushion.id]);
  });

  it('names every line it cannot order: another supplier, no trade price, already on a live order', async () => {
    const err = owner.purchaseOrders.createPurchaseOrder.mutate({
      projectId: p.projectId,
      supplierId: p.lumen.id,
      lines: [{ lineId: p.armchair.id }, { lineId: p.toQuote.id }],
      commandKey: uuid(),
    });
    expect(await codeOf(err)).toBe('VALIDATION_FAILED');
    const again = po().createPurchaseOrder.mutate({
      projectId: p.projectId,
      supplierId: p.atelier.id,
      lines: [{ lineId: p.armchair.id }],
      commandKey: uuid(),
    });
    expect(await codeOf(again)).toBe('VALIDATION_FAILED');
  });

  it('lists, changes, adds and removes under the order’s version; another project’s id is 404', async () => {
    const draft = await po().createPurchaseOrder.mutate({
      projectId: p.projectId,
      supplierId: p.lumen.id,
      commandKey: uuid(),
    });
    const added = await po().addPurchaseOrderLines.mutate({
      projectId: p.projectId,
      purchaseOrderId: draft.id,
      expectedVersion: 1,
      lines: [{ lineId: p.lamp.id }],
      orderAgain: true,
    });
    expect(added.version).toBe(2);
    const changed = await po().updatePurchaseOrderDraft.mutate({
      projectId: p.projectId,
      purchaseOrderId: draft.id,
      expectedVersion: 2,
      notes: 'Call before delivering.',
      lines: [{ orderLineId: added.lines[0]!.id, quantity: { amount4: '20000' } }],
    });
    expect(changed.lines[0]!.tradeFigures.net).toEqual(gbp('1753100')); // 2 × 87.6543 = 175.3086 → 175.31
    const stale = po().updatePurchaseOrderDraft.mutate({
      projectId: p.projectId,
      purchaseOrderId: draft.id,
      expectedVersion: 2,
      notes: 'Too late.',
    });
    expect(await codeOf(stale)).toBe('VERSION_CONFLICT');
    const removed = await callAction(mcp, 'remove_purchase_order_lines', {
      projectId: p.projectId,
      purchaseOrderId: draft.id,
      expectedVersion: changed.version,
      orderLineIds: [added.lines[0]!.id],
    });
    expect(removed.result.lines).toEqual([]);
    const listed = await allPages((cursor) =>
      po().listPurchaseOrders.query({ projectId: p.projectId, supplierId: p.lumen.id, limit: 1, cursor }),
    );
    expect(listed.map((o) => o.id)).toContain(draft.id);
    expect(listed.every((o) => o.supplierId === p.lumen.id)).toBe(true);
    const elsewhere = await owner.projects.createStudioProject.mutate({ name: 'Other', commandKey: uuid() });
    expect(await codeOf(po().getPurchaseOrder.query({ projectId: elsewhere.id, purchaseOrderId: draft.id }))).toBe(
      'NOT_FOUND',
    );
  });
});

describe('over MCP', () => {
  it('makes, lists, changes and extends an order, and reads its revisions, through call_action', async () => {
    const made = await callAction(mcp, 'create_purchase_order', {
      projectId: p.projectId,
      supplierId: p.lumen.id,
      wantedBy: '2027-04-01',
      commandKey: uuid(),
    });
    const id = made.result.id as string;
    const added = await callAction(mcp, 'add_purchase_order_lines', {
      projectId: p.projectId,
      purchaseOrderId: id,
      expectedVersion: made.result.version,
      lines: [{ lineId: p.lamp.id, tradePrice: { amount4: '800000' } }],
      orderAgain: true,
    });
    expect(added.result.lines[0].tradePrice).toEqual(gbp('800000'));
    const changed = await callAction(mcp, 'update_purchase_order_draft', {
      projectId: p.projectId,
      purchaseOrderId: id,
      expectedVersion: added.result.version,
      supplierReference: 'Account 4471',
    });
    expect(changed.result).toMatchObject({ supplierReference: 'Account 4471', wantedBy: '2027-04-01' });
    const listed = await callAction(mcp, 'list_purchase_orders', { projectId: p.projectId, state: 'draft' });
    expect(listed.result.items.map((o: { id: string }) => o.id)).toContain(id);
    await po().issuePurchaseOrderRevision.mutate({
      projectId: p.projectId,
      purchaseOrderId: id,
      expectedVersion: changed.result.version,
      confirm: true,
    });
    const revisions = await callAction(mcp, 'list_purchase_order_revisions', {
      projectId: p.projectId,
      purchaseOrderId: id,
    });
    expect(revisions.result.items.map((r: { number: number }) => r.number)).toEqual([1]);
    expect(revisions.result.items[0].content.supplierReference).toBe('Account 4471');
  });
});

describe('issuing', () => {
  it('freezes revision N with its digest; the next issue supersedes it and N never changes', async () => {
    const draft = await atelierDraft(owner, p);
    const unconfirmed = po().issuePurchaseOrderRevision.mutate({
      projectId: p.projectId,
      purchaseOrderId: draft.id,
      expectedVersion: draft.version,
    });
    expect(await codeOf(unconfirmed)).toBe('CONFIRMATION_REQUIRED');
    const first = await po().issuePurchaseOrderRevision.mutate({
      projectId: p.projectId,
      purchaseOrderId: draft.id,
      expectedVersion: draft.version,
      confirm: true,
    });
    expect(first).toMatchObject({ number: 1, state: 'current', tradeTotals: { gross: gbp('1524000') } });
    expect(first.digest).toBe(createHash('sha256').update(canonicalJson(first.content)).digest('hex'));
    const order = await po().getPurchaseOrder.query({ projectId: p.projectId, purchaseOrderId: draft.id });
    expect(order).toMatchObject({ state: 'issued', currentRevisionId: first.id, revisionCount: 1 });
    const edited = await po().updatePurchaseOrderDraft.mutate({
      projectId: p.projectId,
      purchaseOrderId: draft.id,
      expectedVersion: order.version,
      lines: [{ orderLineId: order.lines[0]!.id, quantity: { amount4: '40000' } }],
    });
    const second = await callAction(mcp, 'issue_purchase_order_revision', {
      projectId: p.projectId,
      purchaseOrderId: draft.id,
      expectedVersion: edited.version,
      confirm: true,
    });
    expect(second.result).toMatchObject({ number: 2, state: 'current' });
    const revisions = await po().listPurchaseOrderRevisions.query({
      projectId: p.projectId,
      purchaseOrderId: draft.id,
    });
    expect(revisions.items.map((r) => [r.number, r.state])).toEqual([
      [1, 'superseded'],
      [2, 'current'],
    ]);
    expect(revisions.items[0]!.content).toEqual(first.content);
    expect(revisions.items[0]!.digest).toBe(first.digest);
  });

  it('records one of an issue and a cancel racing from the same version, and refuses the other', async () => {
    const draft = await atelierDraft(owner, p);
    const at = { projectId: p.projectId, purchaseOrderId: draft.id, expectedVersion: draft.version, confirm: true };
    const settle = (call: Promise<unknown>) =>
      call.then(
        () => 'ok',
        (e: { data?: { serviceCode?: string } }) => e.data?.serviceCode,
      );
    const outcomes = await Promise.all([
      settle(po().issuePurchaseOrderRevision.mutate(at)),
      settle(po().cancelPurchaseOrder.mutate({ ...at, reason: 'Changed our mind.' })),
    ]);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes).toContain('VERSION_CONFLICT');
    const after = await po().getPurchaseOrder.query({ projectId: p.projectId, purchaseOrderId: draft.id });
    const revisions = await po().listPurchaseOrderRevisions.query({
      projectId: p.projectId,
      purchaseOrderId: draft.id,
    });
    if (after.state === 'issued') expect(revisions.items.map((r) => r.state)).toEqual(['current']);
    else expect([after.state, revisions.items]).toEqual(['cancelled', []]);
  });

  it('holds no client price, markup or client name in what the supplier is sent', async () => {
    const { revision } = await issuedOrder(owner, p);
    const text = JSON.stringify(revision.content);
    for (const form of leakForms([555555n, 27183n])) expect(text).not.toContain(form);
    expect(text).not.toContain(p.client.name);
    expect(text).toContain(p.atelier.name);
  });
});

describe('deliveries and cancelling', () => {
  it('moves to partly_delivered then delivered, never over what is still to come', async () => {
    const { order } = await issuedOrder(owner, p);
    const [armchair, cushion] = order.lines;
    const deliver = (lines: unknown[], extra: Record<string, unknown> = {}) =>
      po().recordPurchaseOrderDelivery.mutate({
        projectId: p.projectId,
        purchaseOrderId: order.id,
        receivedOn: '2027-02-10',
        lines,
        commandKey: uuid(),
        ...extra,
      } as never);
    const part = await deliver([{ orderLineId: armchair!.id, quantity: { amount4: '20000' }, note: 'One scuffed.' }]);
    expect(part.state).toBe('partly_delivered');
    expect(part.lines[0]!.received).toEqual({ amount4: '20000' });
    expect(await codeOf(deliver([{ orderLineId: armchair!.id, quantity: { amount4: '20000' } }]))).toBe(
      'OVER_RECEIVED',
    );
    const edit = po().updatePurchaseOrderDraft.mutate({
      projectId: p.projectId,
      purchaseOrderId: order.id,
      expectedVersion: part.version,
      notes: 'x',
    });
    expect(await codeOf(edit)).toBe('PURCHASE_ORDER_WRONG_STATE');
    const cancel = po().cancelPurchaseOrder.mutate({
      projectId: p.projectId,
      purchaseOrderId: order.id,
      expectedVersion: part.version,
      reason: 'Too slow.',
      confirm: true,
    });
    expect(await codeOf(cancel)).toBe('PURCHASE_ORDER_WRONG_STATE');
    const rest = await callAction(mcp, 'record_purchase_order_delivery', {
      projectId: p.projectId,
      purchaseOrderId: order.id,
      receivedOn: '2027-02-12',
      lines: [
        { orderLineId: armchair!.id, quantity: { amount4: '10000' } },
        { orderLineId: cushion!.id, quantity: { amount4: '25000' } },
      ],
      commandKey: uuid(),
    });
    expect(rest.result.state).toBe('delivered');
    expect(rest.result.deliveries).toHaveLength(2);
    expect(await codeOf(deliver([{ orderLineId: cushion!.id, quantity: { amount4: '1' } }]))).toBe(
      'PURCHASE_ORDER_WRONG_STATE',
    );
  });

  it('takes one of two deliveries of the same outstanding quantity sent at once, never both', async () => {
    const { order } = await issuedOrder(owner, p);
    const line = order.lines[1]!;
    const deliver = () =>
      po()
        .recordPurchaseOrderDelivery.mutate({
          projectId: p.projectId,
          purchaseOrderId: order.id,
          receivedOn: '2027-02-10',
          lines: [{ orderLineId: line.id, quantity: line.quantity }],
          commandKey: uuid(),
        })
        .then(
          () => 'ok',
          (e: { data?: { serviceCode?: string } }) => e.data?.serviceCode,
        );
    const outcomes = await Promise.all([deliver(), deliver()]);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(['OVER_RECEIVED', 'VERSION_CONFLICT']).toContain(outcomes.find((o) => o !== 'ok'));
    const after = await po().getPurchaseOrder.query({ projectId: p.projectId, purchaseOrderId: order.id });
    expect(after.lines[1]!.received).toEqual(line.quantity);
    expect(after.deliveries).toHaveLength(1);
  });

  it('cancels with a reason, and once part came only the rest with a shortfall note', async () => {
    const draft = await atelierDraft(owner, p);
    const cancelled = await po().cancelPurchaseOrder.mutate({
      projectId: p.projectId,
      purchaseOrderId: draft.id,
      expectedVersion: draft.version,
      reason: 'Chose another maker.',
      confirm: true,
    });
    expect(cancelled).toMatchObject({ state: 'cancelled', cancelReason: 'Chose another maker.' });
    const { order } = await issuedOrder(owner, p);
    const part = await po().recordPurchaseOrderDelivery.mutate({
      projectId: p.projectId,
      purchaseOrderId: order.id,
      receivedOn: '2027-02-10',
      lines: [{ orderLineId: order.lines[0]!.id, quantity: { amount4: '10000' } }],
      commandKey: uuid(),
    });
    const rest = await callAction(mcp, 'cancel_purchase_order', {
      projectId: p.projectId,
      purchaseOrderId: order.id,
      expectedVersion: part.version,
      reason: 'Discontinued.',
      shortfallNote: 'Two armchairs and the cushions will not come.',
      confirm: true,
    });
    expect(rest.result).toMatchObject({
      state: 'cancelled',
      shortfallNote: 'Two armchairs and the cushions will not come.',
    });
    const revisions = await po().listPurchaseOrderRevisions.query({
      projectId: p.projectId,
      purchaseOrderId: order.id,
    });
    expect(revisions.items.map((r) => r.state)).toEqual(['voided']);
  });
});

describe('orders by supplier', () => {
  it('plans one order per supplier on a dry run, names what it leaves out, then drafts them once', async () => {
    const q = await orderingProject(owner, 'By supplier');
    const ask = (extra: Record<string, unknown> = {}) =>
      po().createPurchaseOrdersBySupplier.mutate({
        projectId: q.projectId,
        lineIds: [q.armchair.id, q.cushion.id, q.lamp.id, q.unsourced.id, q.toQuote.id],
        wantedBy: '2027-03-01',
        commandKey: uuid(),
        ...extra,
      } as never);
    const plan = await ask({ dryRun: true });
    expect(plan.dryRun).toBe(true);
    expect(plan.orders.map((o) => [o.supplierId, o.purchaseOrderId, o.lines.length])).toEqual([
      [q.atelier.id, null, 2],
      [q.lumen.id, null, 1],
    ]);
    // The studio's tax rate (0 here) unless sent; net per line rounded once, summed.
    expect(plan.orders[0]!.tradeTotals).toEqual({ net: gbp('1308600'), tax: gbp('0'), gross: gbp('1308600') });
    expect(plan.skipped.map((s) => [s.lineId, s.reason])).toEqual([
      [q.unsourced.id, 'no_supplier'],
      [q.toQuote.id, 'no_trade_price'],
    ]);
    expect((await po().listPurchaseOrders.query({ projectId: q.projectId })).items).toEqual([]);
    const made = await ask();
    expect(made.orders.every((o) => o.purchaseOrderId !== null)).toBe(true);
    const twice = await ask();
    expect(twice.orders).toEqual([]);
    expect(twice.skipped.filter((s) => s.reason === 'already_ordered')).toHaveLength(3);
    const forced = await callAction(mcp, 'create_purchase_orders_by_supplier', {
      projectId: q.projectId,
      lineIds: [q.lamp.id],
      orderAgain: true,
      commandKey: uuid(),
    });
    expect(forced.result.orders).toHaveLength(1);
  });

  it('orders the accepted pieces of a decided estimate revision at the accepted quantities', async () => {
    const q = await orderingProject(owner, 'From estimate');
    const estimate = await owner.estimates.createEstimate.mutate({
      projectId: q.projectId,
      lines: [
        { lineId: q.armchair.id },
        { lineId: q.lamp.id, quantity: { amount4: '30000' } },
        { lineId: q.cushion.id },
      ],
      commandKey: uuid(),
    });
    const revision = await owner.estimates.issueEstimateRevision.mutate({
      projectId: q.projectId,
      estimateId: estimate.id,
      expectedVersion: estimate.version,
      confirm: true,
    });
    const undecided = po().createPurchaseOrdersBySupplier.mutate({
      projectId: q.projectId,
      estimateRevisionId: revision.id,
      commandKey: uuid(),
    });
    expect(await codeOf(undecided)).toBe('VALIDATION_FAILED');
    const pieces = revision.content.pieces;
    await recordDecision(owner, q.projectId, revision, {
      outcome: 'by_line',
      lines: pieces.map((piece, i) => ({ estimateLineId: piece.pieceId, outcome: i === 2 ? 'declined' : 'accepted' })),
    });
    const made = await po().createPurchaseOrdersBySupplier.mutate({
      projectId: q.projectId,
      estimateRevisionId: revision.id,
      commandKey: uuid(),
    });
    expect(made.orders.map((o) => [o.supplierId, o.lines.map((l) => [l.lineId, l.quantity.amount4])])).toEqual([
      [q.atelier.id, [[q.armchair.id, '30000']]],
      [q.lumen.id, [[q.lamp.id, '30000']]],
    ]);
  });
});

describe('permissions', () => {
  it('an assistant reads orders without amounts and cannot make one', async () => {
    const { order } = await issuedOrder(owner, p);
    const assistant = await memberWithToken(app.database, 'assistant', [{ projectId: p.projectId, level: 'edit' }]);
    const as = trpc(app.url, assistant.token);
    const read = await as.purchaseOrders.getPurchaseOrder.query({ projectId: p.projectId, purchaseOrderId: order.id });
    expect(read.lines[0]).not.toHaveProperty('tradePrice');
    expect(read.lines[0]).not.toHaveProperty('tradeFigures');
    expect(read).not.toHaveProperty('tradeTotals');
    expect(read.lines[0]!.quantity).toEqual({ amount4: '30000' });
    const revisions = await as.purchaseOrders.listPurchaseOrderRevisions.query({
      projectId: p.projectId,
      purchaseOrderId: order.id,
    });
    expect(revisions.items[0]).not.toHaveProperty('tradeTotals');
    const text = JSON.stringify(revisions);
    for (const form of leakForms([333333n, 1000000n, 1524000n])) expect(text).not.toContain(form);
    const make = as.purchaseOrders.createPurchaseOrder.mutate({
      projectId: p.projectId,
      supplierId: p.atelier.id,
      commandKey: uuid(),
    });
    expect(await codeOf(make)).toBe('FORBIDDEN');
  });
});

describe('another studio', () => {
  it('its orders, order lines, suppliers and lines are NOT_FOUND wherever an input names them', async () => {
    const { them } = await studioOfTheirOwn(app, owner, { name: 'Elsewhere' });
    const q = await orderingProject(them, 'Their job');
    const theirs = await atelierDraft(them, q);
    const mine = await atelierDraft(owner, p);
    expect(await codeOf(po().getPurchaseOrder.query({ projectId: q.projectId, purchaseOrderId: theirs.id }))).toBe(
      'NOT_FOUND',
    );
    expect(await codeOf(po().getPurchaseOrder.query({ projectId: p.projectId, purchaseOrderId: theirs.id }))).toBe(
      'NOT_FOUND',
    );
    const theirSupplier = po().createPurchaseOrder.mutate({
      projectId: p.projectId,
      supplierId: q.atelier.id,
      commandKey: uuid(),
    });
    expect(await codeOf(theirSupplier)).toBe('NOT_FOUND');
    const theirLine = po().addPurchaseOrderLines.mutate({
      projectId: p.projectId,
      purchaseOrderId: mine.id,
      expectedVersion: mine.version,
      lines: [{ lineId: q.armchair.id }],
    });
    expect(await codeOf(theirLine)).toBe('NOT_FOUND');
    const theirOrderLine = po().removePurchaseOrderLines.mutate({
      projectId: p.projectId,
      purchaseOrderId: mine.id,
      expectedVersion: mine.version,
      orderLineIds: [theirs.lines[0]!.id],
    });
    expect(await codeOf(theirOrderLine)).toBe('NOT_FOUND');
    const viaMcp = await callAction(mcp, 'cancel_purchase_order', {
      projectId: q.projectId,
      purchaseOrderId: theirs.id,
      expectedVersion: 1,
      reason: 'Not ours.',
      confirm: true,
    });
    expect(viaMcp.code).toBe('NOT_FOUND');
  });
});
