/**
 * The demo's ordering: one purchase order on Harbour House, issued to the supplier of the most priced lines and
 * partly delivered (the first line in full, the rest still to come), made through the real actions like the rest of
 * the showcase. Lines with no set trade price are left out by create_purchase_orders_by_supplier, as for a studio.
 */
type Call = (name: string, input: Record<string, unknown>) => Promise<Record<string, unknown>>;

interface Planned {
  supplierId: string;
  purchaseOrderId: string | null;
  lines: Array<{ lineId: string }>;
}

export async function seedDemoOrder(call: Call, projectId: string) {
  const lines = (await call('list_schedule_lines', { projectId })).items as Array<{
    id: string;
    supplierId: string | null;
  }>;
  const plan = (await call('create_purchase_orders_by_supplier', {
    projectId,
    lineIds: lines.map((l) => l.id),
    dryRun: true,
    commandKey: crypto.randomUUID(),
  })) as { orders: Planned[] };
  const busiest = [...plan.orders].sort((a, b) => b.lines.length - a.lines.length)[0];
  if (!busiest) return;
  const made = (await call('create_purchase_orders_by_supplier', {
    projectId,
    lineIds: busiest.lines.map((l) => l.lineId),
    deliveryAddress: 'Harbour House\nCliff Road\nSalcombe TQ8 8JQ',
    commandKey: crypto.randomUUID(),
  })) as { orders: Planned[] };
  const purchaseOrderId = made.orders[0]!.purchaseOrderId!;
  const draft = (await call('get_purchase_order', { projectId, purchaseOrderId })) as {
    version: number;
    lines: Array<{ id: string; quantity: { amount4: string } }>;
  };
  await call('issue_purchase_order_revision', {
    projectId,
    purchaseOrderId,
    expectedVersion: draft.version,
    // The demo is made by whoever started the server for the first time: the order is theirs to issue.
    confirm: true,
  });
  const first = draft.lines[0]!;
  await call('record_purchase_order_delivery', {
    projectId,
    purchaseOrderId,
    receivedOn: new Date().toISOString().slice(0, 10),
    lines: [{ orderLineId: first.id, quantity: first.quantity, note: '' }],
    note: 'First delivery; the rest to follow.',
    commandKey: crypto.randomUUID(),
  });
}
