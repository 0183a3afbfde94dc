/**
 * Ordering end to end, as an agent runs it over MCP call_action against the real server and a real SMTP server in this
 * process: an enquiry about a piece still to price is sent, answered and applied (the line's history names it); an
 * estimate is issued and decided; the accepted pieces are drafted into one order per supplier, one is issued, its PDF
 * read back with pdf.js (trade prices, no client price), emailed to the supplier, then delivered in part and in full,
 * the schedule lines showing each step.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyMarkup } from '../../src/core/money.js';
import type { Trpc } from '../helpers/clients.js';
import { uuid } from '../helpers/ids.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { leakForms } from '../helpers/leaks.js';
import { openMailServer } from '../helpers/mail.js';
import { pdfText } from '../helpers/pdf.js';
import { type OrderingProject, orderingProject } from './fixture.js';

const mail = openMailServer();
let app: TestApp;
let owner: Trpc;
let mcp: Client;
let p: OrderingProject;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened), mail.env);
beforeAll(async () => {
  p = await orderingProject(owner, 'Harbour House order');
});

/** File tools (generate_document, deliver_document) take their fields at the top level; procedures under input. */
const FILE_TOOLS = new Set(['generate_document', 'deliver_document']);

/** One action through call_action, held open with a progress token so an operation it starts is answered ended. */
async function act(name: string, input: Record<string, unknown>) {
  const args = FILE_TOOLS.has(name) ? input : { input };
  const res = await mcp.callTool({ name: 'call_action', arguments: { name, arguments: args } }, undefined, {
    onprogress: () => {},
    timeout: 120_000,
  });
  const out = res.structuredContent as { result?: any };
  if (res.isError || !out.result) throw new Error(`${name}: ${JSON.stringify(out)}`);
  return out.result;
}

const orderingOf = async (lineId: string) =>
  (await act('get_schedule_line', { projectId: p.projectId, lineId })).ordering;

/** The bespoke rug (Lumen, trade price to be confirmed) is priced by asking Lumen; the line's history says so. */
async function priceTheRugByEnquiry() {
  const projectId = p.projectId;
  await act('update_supplier', {
    supplierId: p.lumen.id,
    expectedVersion: p.lumen.version,
    email: 'sales@lumen.example',
  });
  await act('update_schedule_line', {
    projectId,
    lineId: p.toQuote.id,
    expectedVersion: p.toQuote.version,
    patch: { markup: { ratio4: '5000' } },
  });
  const enquiry = await act('create_enquiry', {
    projectId,
    title: 'Bespoke rug for the salon',
    message: 'Please quote for the rug below.',
    replyBy: '2027-01-08',
    supplierIds: [p.lumen.id],
    items: [{ lineId: p.toQuote.id }],
    commandKey: uuid(),
  });
  const sent = await act('send_enquiry', { projectId, enquiryId: enquiry.id, expectedVersion: enquiry.version });
  expect(sent).toMatchObject({ status: 'succeeded' });
  expect(mail.received.find((m) => m.mail.subject?.includes('Bespoke rug for the salon'))?.to).toEqual([
    'sales@lumen.example',
  ]);
  const answered = await act('record_enquiry_response', {
    projectId,
    enquiryId: enquiry.id,
    supplierId: p.lumen.id,
    lines: [{ item: 1, tradePrice: { amount4: '4123450' }, leadTimeDays: 42, validUntil: '2027-03-31' }],
    commandKey: uuid(),
  });
  const current = await act('get_enquiry', { projectId, enquiryId: enquiry.id });
  const applied = await act('apply_enquiry_response', {
    projectId,
    enquiryId: enquiry.id,
    responseId: answered.response.id,
    expectedVersion: current.version,
    confirm: true,
  });
  expect(applied.enquiry.state).toBe('applied');
  const rug = await act('get_schedule_line', { projectId, lineId: p.toQuote.id });
  expect(rug).toMatchObject({ tradePrice: { state: 'set', price: { amount4: '4123450' } }, leadTimeDays: 42 });
  const history = await act('get_schedule_line_history', { projectId, lineId: p.toQuote.id, limit: 1 });
  expect(history.items[0].action).toBe('apply_enquiry_response');
  expect(history.items[0].summary).toContain(enquiry.id);
  expect(history.items[0].summary).toContain(answered.response.id);
}

/** An estimate of the armchair, the lamp, the rug and the cushion, issued and decided: all but the cushion accepted. */
async function decidedEstimate() {
  const projectId = p.projectId;
  const pieces = [p.armchair, p.lamp, p.toQuote, p.cushion].map((l) => ({ lineId: l.id }));
  const estimate = await act('create_estimate', { projectId, lines: pieces, commandKey: uuid() });
  const revision = await act('issue_estimate_revision', {
    projectId,
    estimateId: estimate.id,
    expectedVersion: estimate.version,
    confirm: true,
  });
  await act('record_estimate_decision', {
    projectId,
    revisionId: revision.id,
    digest: revision.digest,
    outcome: 'by_line',
    lines: revision.content.pieces.map((piece: { pieceId: string; wording: string }) => ({
      estimateLineId: piece.pieceId,
      outcome: piece.wording === 'Linen cushion' ? 'declined' : 'accepted',
    })),
    deciderName: 'Clara Penhaligon',
    method: 'in_person',
    commandKey: uuid(),
    confirm: true,
  });
  return revision;
}

describe('from a decided estimate to goods received', () => {
  it('prices by enquiry, orders by supplier, sends the order, and receives it in two deliveries', async () => {
    const projectId = p.projectId;
    await priceTheRugByEnquiry();
    const revision = await decidedEstimate();

    const made = await act('create_purchase_orders_by_supplier', {
      projectId,
      estimateRevisionId: revision.id,
      commandKey: uuid(),
    });
    const bySupplier = Object.fromEntries(made.orders.map((o: any) => [o.supplierId, o]));
    expect(made.orders).toHaveLength(2);
    expect(bySupplier[p.atelier.id].lines.map((l: any) => l.lineId)).toEqual([p.armchair.id]);
    expect(bySupplier[p.lumen.id].lines.map((l: any) => l.lineId)).toEqual([p.lamp.id, p.toQuote.id]);
    const lumen = await act('get_purchase_order', {
      projectId,
      purchaseOrderId: bySupplier[p.lumen.id].purchaseOrderId,
    });
    expect(await orderingOf(p.cushion.id)).toMatchObject({ state: 'not_ordered' });
    expect(await orderingOf(p.lamp.id)).toMatchObject({ state: 'on_draft', purchaseOrder: { id: lumen.id } });

    const drafted = await act('update_purchase_order_draft', {
      projectId,
      purchaseOrderId: lumen.id,
      expectedVersion: lumen.version,
      deliveryAddress: 'Harbour House, 1 Quay Street, Falmouth',
      wantedBy: '2027-03-01',
    });
    await act('issue_purchase_order_revision', {
      projectId,
      purchaseOrderId: lumen.id,
      expectedVersion: drafted.version,
      confirm: true,
    });
    expect(await orderingOf(p.lamp.id)).toMatchObject({ state: 'ordered', ordered: { amount4: '10000' } });

    // The order as the supplier reads it: trade prices and totals, nothing of the client.
    const rendered = await act('generate_document', {
      projectId,
      kind: 'purchase_order',
      purchaseOrderId: lumen.id,
      commandKey: uuid(),
    });
    expect(rendered).toMatchObject({ status: 'succeeded' });
    const text = pdfText(app.rt.files.originalPath(rendered.result.sha256)).join('\n');
    expect(text).toContain(`To ${p.lumen.name}`);
    expect(text).toContain('1 each × £87.6543 = £87.65');
    expect(text).toContain('1 each × £412.345 = £412.35');
    expect(text).toContain('Net £500.00');
    expect(text).toContain('Wanted by 1 March 2027');
    const clientPrices = [applyMarkup(876_543n, 3_500n), applyMarkup(4_123_450n, 5_000n), 3_500n * 100n, 5_000n * 100n];
    for (const form of leakForms(clientPrices)) expect(text, `client figure ${form}`).not.toContain(form);
    expect(text).not.toContain(p.client.name);
    expect(text).not.toContain('Harbour House order');

    const sent = await act('deliver_document', { projectId, documentId: rendered.result.id, commandKey: uuid() });
    expect(sent).toMatchObject({ status: 'succeeded' });
    const email = mail.received.at(-1)!;
    expect(email.to).toEqual(['sales@lumen.example']);
    expect(email.mail.attachments[0]!.filename).toBe(rendered.result.filename);

    const order = await act('get_purchase_order', { projectId, purchaseOrderId: lumen.id });
    const [lampLine, rugLine] = order.lines;
    const deliver = (lines: unknown[]) =>
      act('record_purchase_order_delivery', {
        projectId,
        purchaseOrderId: lumen.id,
        receivedOn: '2027-02-20',
        lines,
        commandKey: uuid(),
      });
    const first = await deliver([{ orderLineId: lampLine.id, quantity: { amount4: '10000' }, note: '' }]);
    expect(first.state).toBe('partly_delivered');
    expect(await orderingOf(p.lamp.id)).toMatchObject({ state: 'received', received: { amount4: '10000' } });
    expect(await orderingOf(p.toQuote.id)).toMatchObject({ state: 'ordered', received: { amount4: '0' } });

    const second = await deliver([{ orderLineId: rugLine.id, quantity: { amount4: '10000' }, note: 'Rolled.' }]);
    expect(second.state).toBe('delivered');
    const listed = await act('list_schedule_lines', { projectId });
    const states = Object.fromEntries(listed.items.map((l: any) => [l.heading, l.ordering.state]));
    expect(states).toEqual({
      'Velvet armchair': 'on_draft',
      'Linen cushion': 'not_ordered',
      'Brass lamp': 'received',
      'Found mirror': 'not_ordered',
      'Bespoke rug': 'received',
    });
    expect(await orderingOf(p.toQuote.id)).toMatchObject({
      purchaseOrder: { id: lumen.id, number: order.number },
    });
  });
});
