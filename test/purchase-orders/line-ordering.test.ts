/**
 * A line's ordering, shown on the line record (read-only) as its purchase orders and deliveries move it: not ordered,
 * on a draft, ordered, partly received, received. A delivery never moves the line's version, yet its ETag changes
 * (If-None-Match serves the new state, never a stale 304), and an edit sent with If-Match from before the delivery
 * still succeeds, while a tag whose guarded part is wrong is still refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { http, type Trpc } from '../helpers/clients.js';
import { uuid } from '../helpers/ids.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';
import { atelierDraft, type OrderingProject, orderingProject } from './fixture.js';

let app: TestApp;
let owner: Trpc;
let p: OrderingProject;
openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  p = await orderingProject(owner);
});

const path = (lineId: string) => `/v1/projects/${p.projectId}/items/${lineId}`;
const read = (lineId: string, headers: Record<string, string> = {}) =>
  http(app.url, 'GET', path(lineId), { token: app.token, headers });
const ordering = async (lineId: string) =>
  (await owner.schedule.getScheduleLine.query({ projectId: p.projectId, lineId })).ordering;

describe("a line's ordering", () => {
  it('follows its order from draft to received, without moving the line’s version', async () => {
    expect(await ordering(p.armchair.id)).toEqual({
      state: 'not_ordered',
      ordered: { amount4: '0' },
      received: { amount4: '0' },
      purchaseOrder: null,
    });
    const draft = await atelierDraft(owner, p);
    expect(await ordering(p.armchair.id)).toMatchObject({
      state: 'on_draft',
      ordered: { amount4: '0' },
      purchaseOrder: { id: draft.id, number: draft.number },
    });
    await owner.purchaseOrders.issuePurchaseOrderRevision.mutate({
      projectId: p.projectId,
      purchaseOrderId: draft.id,
      expectedVersion: draft.version,
      confirm: true,
    });
    expect(await ordering(p.armchair.id)).toMatchObject({
      state: 'ordered',
      ordered: { amount4: '30000' },
      received: { amount4: '0' },
      purchaseOrder: { id: draft.id, number: draft.number },
    });

    const before = await read(p.armchair.id);
    const etag = before.headers.get('etag')!;
    expect(etag).toMatch(new RegExp(`^"${before.body.version}-[0-9a-f]{8}-[0-9a-f]{8}"$`));
    const [armchairLine, cushionLine] = draft.lines;
    const deliver = (lines: unknown[]) =>
      owner.purchaseOrders.recordPurchaseOrderDelivery.mutate({
        projectId: p.projectId,
        purchaseOrderId: draft.id,
        receivedOn: '2027-02-10',
        lines,
        commandKey: uuid(),
      } as never);
    await deliver([{ orderLineId: armchairLine!.id, quantity: { amount4: '10000' } }]);

    // The representation changed, so the ETag did: a cached copy is never served stale.
    const after = await read(p.armchair.id, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.body.version).toBe(before.body.version);
    expect(after.body.ordering).toMatchObject({ state: 'partly_received', received: { amount4: '10000' } });
    expect(after.headers.get('etag')).not.toBe(etag);
    // Only the digest of the ordering moved: the version and the guarded digest are what they were.
    expect(after.headers.get('etag')!.slice(0, -10)).toBe(etag.slice(0, -10));
    expect((await read(p.armchair.id, { 'if-none-match': after.headers.get('etag')! })).status).toBe(304);

    // The studio's edit, begun before the delivery, is not refused for it.
    const edit = await http(app.url, 'PATCH', path(p.armchair.id), {
      token: app.token,
      headers: { 'if-match': etag },
      body: { finish: 'Moss velvet' },
    });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ finish: 'Moss velvet', version: before.body.version + 1 });
    expect(edit.body.ordering.state).toBe('partly_received');

    await deliver([
      { orderLineId: armchairLine!.id, quantity: { amount4: '20000' } },
      { orderLineId: cushionLine!.id, quantity: { amount4: '25000' } },
    ]);
    expect(await ordering(p.armchair.id)).toEqual({
      state: 'received',
      ordered: { amount4: '30000' },
      received: { amount4: '30000' },
      purchaseOrder: { id: draft.id, number: draft.number },
    });
    const listed = await owner.schedule.listScheduleLines.query({ projectId: p.projectId });
    const states = Object.fromEntries(listed.items.map((l) => [l.heading, l.ordering.state]));
    expect(states).toMatchObject({
      'Velvet armchair': 'received',
      'Linen cushion': 'received',
      'Brass lamp': 'not_ordered',
    });
  });

  it('counts what the supplier was sent: a draft edit after issuing counts once it is issued again', async () => {
    const order = await owner.purchaseOrders.createPurchaseOrder.mutate({
      projectId: p.projectId,
      supplierId: p.lumen.id,
      lines: [{ lineId: p.lamp.id }],
      commandKey: uuid(),
    });
    const at = { projectId: p.projectId, purchaseOrderId: order.id };
    const issue = (expectedVersion: number) =>
      owner.purchaseOrders.issuePurchaseOrderRevision.mutate({ ...at, expectedVersion, confirm: true });
    await issue(order.version);
    const issued = await owner.purchaseOrders.getPurchaseOrder.query(at);
    const edited = await owner.purchaseOrders.updatePurchaseOrderDraft.mutate({
      ...at,
      expectedVersion: issued.version,
      lines: [{ orderLineId: issued.lines[0]!.id, quantity: { amount4: '30000' } }],
    });
    expect(await ordering(p.lamp.id)).toMatchObject({ state: 'ordered', ordered: { amount4: '10000' } });
    await issue(edited.version);
    expect(await ordering(p.lamp.id)).toMatchObject({ state: 'ordered', ordered: { amount4: '30000' } });
  });

  it('still refuses an If-Match whose guarded part is stale or forged', async () => {
    const line = await read(p.lamp.id);
    const etag = line.headers.get('etag')!;
    const forged = etag.replace(/^("\d+-)[0-9a-f]{8}/, '$100000000');
    const edit = await http(app.url, 'PATCH', path(p.lamp.id), {
      token: app.token,
      headers: { 'if-match': forged },
      body: { finish: 'Brushed' },
    });
    expect(edit.body.code).toBe('VERSION_CONFLICT');
    // The ordering digest alone may be anything: it is not what guards a write.
    const other = etag.replace(/[0-9a-f]{8}"$/, 'ffffffff"');
    const ok = await http(app.url, 'PATCH', path(p.lamp.id), {
      token: app.token,
      headers: { 'if-match': other },
      body: { finish: 'Brushed' },
    });
    expect(ok.status).toBe(200);
  });
});
