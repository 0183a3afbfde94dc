import type { Trpc } from '../helpers/clients.js';
import { uuid } from '../helpers/ids.js';
import { createLine } from '../helpers/schedule.js';

/**
 * A project for ordering, with awkward trade figures and client prices that must never reach a supplier:
 * - `armchair` (Atelier): 3 × trade 33.3333 = 99.9999 → 100.00, 20 % tax 20.00; its client price 55.5555.
 * - `cushion` (Atelier): 2.5 × trade 12.3450 = 30.8625 → 30.86; its markup 271.83 %.
 * - `lamp` (Lumen): 1 × trade 87.6543.
 * - `unsourced`: no supplier; `toQuote` (Lumen): trade price tbc.
 */
export async function orderingProject(owner: Trpc, name = 'Ordering check') {
  const client = await owner.clients.createClient.mutate({
    name: `Penhaligon ${uuid().slice(0, 6)}`,
    commandKey: uuid(),
  });
  const p = await owner.projects.createStudioProject.mutate({
    name,
    sections: ['Salon'],
    clientId: client.id,
    commandKey: uuid(),
  });
  const sectionId = p.sections[0]!.id;
  const supplier = (n: string) =>
    owner.suppliers.createSupplier.mutate({ name: `${n} ${uuid().slice(0, 6)}`, commandKey: uuid() });
  const atelier = await supplier('Atelier');
  const lumen = await supplier('Lumen');
  const line = (fields: Record<string, unknown>) =>
    createLine(owner, { projectId: p.id, sectionId, ...fields } as never);
  const armchair = await line({
    heading: 'Velvet armchair',
    supplierId: atelier.id,
    quantity: { amount4: '30000' },
    tradePrice: { state: 'set', amount4: '333333' },
    clientPrice: { state: 'set', amount4: '555555' },
  });
  const cushion = await line({
    heading: 'Linen cushion',
    supplierId: atelier.id,
    quantity: { amount4: '25000' },
    tradePrice: { state: 'set', amount4: '123450' },
    markup: { ratio4: '27183' },
  });
  const lamp = await line({
    heading: 'Brass lamp',
    supplierId: lumen.id,
    quantity: { amount4: '10000' },
    tradePrice: { state: 'set', amount4: '876543' },
    markup: { ratio4: '3500' },
  });
  const unsourced = await line({ heading: 'Found mirror', tradePrice: { state: 'set', amount4: '100000' } });
  const toQuote = await line({ heading: 'Bespoke rug', supplierId: lumen.id });
  return { projectId: p.id, client, atelier, lumen, armchair, cushion, lamp, unsourced, toQuote };
}

export type OrderingProject = Awaited<ReturnType<typeof orderingProject>>;

/** A draft order to Atelier for the armchair and the cushion. */
export const atelierDraft = (owner: Trpc, p: OrderingProject, extra: Record<string, unknown> = {}) =>
  owner.purchaseOrders.createPurchaseOrder.mutate({
    projectId: p.projectId,
    supplierId: p.atelier.id,
    deliveryAddress: 'Harbour House, 1 Quay Street',
    wantedBy: '2027-02-15',
    supplierReference: 'Quote Q-2291',
    lines: [
      { lineId: p.armchair.id, taxRate: { ratio4: '2000' } },
      { lineId: p.cushion.id, taxRate: { ratio4: '500' } },
    ],
    orderAgain: true,
    commandKey: uuid(),
    ...extra,
  } as never);

/** Atelier's order, issued once. */
export async function issuedOrder(owner: Trpc, p: OrderingProject) {
  const draft = await atelierDraft(owner, p);
  const revision = await owner.purchaseOrders.issuePurchaseOrderRevision.mutate({
    projectId: p.projectId,
    purchaseOrderId: draft.id,
    expectedVersion: draft.version,
    confirm: true,
  });
  const order = await owner.purchaseOrders.getPurchaseOrder.query({
    projectId: p.projectId,
    purchaseOrderId: draft.id,
  });
  return { order, revision };
}
