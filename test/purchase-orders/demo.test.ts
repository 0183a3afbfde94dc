/** The demo studio's ordering, as a first start makes it: one issued order on Harbour House, partly delivered. */
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoShowcase } from '../../src/seed/demo-showcase.js';
import type { Trpc } from '../helpers/clients.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  await seedDemoShowcase(app.rt, app.token, app.projectId);
});

describe('the demo order', () => {
  it('is issued to one supplier and partly delivered, at trade prices', async () => {
    const orders = await owner.purchaseOrders.listPurchaseOrders.query({ projectId: app.projectId });
    expect(orders.items.map((o) => o.state)).toEqual(['partly_delivered']);
    const order = await owner.purchaseOrders.getPurchaseOrder.query({
      projectId: app.projectId,
      purchaseOrderId: orders.items[0]!.id,
    });
    expect(order.revisionCount).toBe(1);
    expect(order.deliveries).toHaveLength(1);
    expect(order.lines[0]!.received).toEqual(order.lines[0]!.quantity);
    expect(order.lines.length).toBeGreaterThan(1);
    expect(order.lines.slice(1).every((l) => l.received.amount4 === '0')).toBe(true);

    // The schedule shows it: the line delivered in full is received, the others ordered, each naming the order.
    const lines = await owner.schedule.listScheduleLines.query({ projectId: app.projectId });
    const byId = new Map(lines.items.map((l) => [l.id, l.ordering]));
    const [first, ...rest] = order.lines;
    const named = { id: order.id, number: order.number };
    expect(byId.get(first!.lineId)).toMatchObject({
      state: 'received',
      received: first!.quantity,
      purchaseOrder: named,
    });
    for (const l of rest) expect(byId.get(l.lineId)).toMatchObject({ state: 'ordered', purchaseOrder: named });
  });
});
