/**
 * The order document: generate_document kind purchase_order over MCP renders an issued revision for its supplier, read
 * back with pdf.js (test/helpers/pdf.ts): the studio, the supplier and its reference, each line at its exact trade
 * price with its tax, the totals, the delivery details, and no client price, markup, client or project name in any
 * form. deliver_document without a recipient sends it to the supplier's email, through a real SMTP server in this
 * process; a caller without pricing:read is refused the file.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyMarkup } from '../../src/core/money.js';
import { callTool } from '../helpers/calls.js';
import { type Trpc, trpc } from '../helpers/clients.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { leakForms } from '../helpers/leaks.js';
import { openMailServer } from '../helpers/mail.js';
import { pdfText } from '../helpers/pdf.js';
import { atelierDraft, issuedOrder, type OrderingProject, orderingProject } from './fixture.js';

const { received, env: mailEnv } = openMailServer();

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let p: OrderingProject;
let order: Awaited<ReturnType<typeof issuedOrder>>;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened), mailEnv);
beforeAll(async () => {
  p = await orderingProject(owner);
  order = await issuedOrder(owner, p);
});

/** A file tool through call_action, answered once its operation has finished. */
async function fileTool(name: string, args: Record<string, unknown>) {
  const res = await mcp.callTool(
    {
      name: 'call_action',
      arguments: { name, arguments: { commandKey: uuid(), projectId: p.projectId, ...args } },
    },
    undefined,
    { onprogress: () => undefined, timeout: 120_000 },
  );
  return res.structuredContent as { result?: any; code?: string };
}

/** Every way the client's side of the armchair, cushion and lamp could be printed: client prices and markups. */
function clientForms() {
  const cushionClient = applyMarkup(123_450n, 27_183n);
  const lampClient = applyMarkup(876_543n, 3_500n);
  return leakForms([555_555n, 27_183n, 3_500n * 100n, cushionClient, lampClient, (cushionClient * 25_000n) / 10_000n]);
}

describe('a purchase order as a PDF', () => {
  it('shows the supplier what it is asked for at trade prices, and nothing of the client', async () => {
    const { result: op } = await fileTool('generate_document', {
      kind: 'purchase_order',
      purchaseOrderId: order.order.id,
    });
    expect(op).toMatchObject({ status: 'succeeded', kind: 'document_render' });
    expect(op.result).toMatchObject({
      kind: 'purchase_order',
      format: 'pdf',
      pageCount: 1,
      source: { kind: 'purchase_order_revision', revisionId: order.revision.id },
    });
    const text = pdfText(app.rt.files.originalPath(op.result.sha256)).join('\n');
    const n = order.order.number;
    expect(text).toContain(`PURCHASE ORDER ${n}, REVISION 1`);
    expect(text).toContain(`To ${p.atelier.name}`);
    expect(text).toContain('your reference Quote Q-2291');
    expect(text).toContain('Harbour House, 1 Quay Street');
    expect(text).toContain('Wanted by 15 February 2027');
    // The unit price as agreed, to the fourth decimal; each line rounded once, then summed (core/taxed-lines.ts).
    expect(text).toContain('3 each × £33.3333 = £100.00 + tax 20 % £20.00 = £120.00');
    expect(text).toContain('2.5 each × £12.345 = £30.86 + tax 5 % £1.54 = £32.40');
    expect(text).toContain('Net £130.86');
    expect(text).toContain('Tax £21.54');
    expect(text).toContain('Total £152.40');
    expect(text).toContain(`Page 1 of 1`);
    for (const form of clientForms()) expect(text, `client figure ${form}`).not.toContain(form);
    expect(text).not.toContain(p.client.name);
    expect(text).not.toContain('Ordering check');
    expect(text).not.toContain('Lumen');
  });

  it('takes kind purchase_order with purchaseOrderId, and a draft has nothing to send yet', async () => {
    expect((await fileTool('generate_document', { kind: 'purchase_order' })).code).toBe('VALIDATION_FAILED');
    expect((await fileTool('generate_document', { purchaseOrderId: order.order.id })).code).toBe('VALIDATION_FAILED');
    expect(
      (await fileTool('generate_document', { kind: 'estimate', purchaseOrderId: order.order.id, revisionNumber: 1 }))
        .code,
    ).toBe('VALIDATION_FAILED');
    const draft = await atelierDraft(owner, p, { lines: [] });
    const { result: op } = await fileTool('generate_document', { kind: 'purchase_order', purchaseOrderId: draft.id });
    expect(op).toMatchObject({ status: 'failed', problem: { code: 'NOT_FOUND' } });
    expect(op.problem.detail).toContain('issue_purchase_order_revision');
  });
});

describe('sending it to the supplier', () => {
  let documentId: string;
  let sha256: string;
  beforeAll(async () => {
    const { result: op } = await fileTool('generate_document', {
      kind: 'purchase_order',
      purchaseOrderId: order.order.id,
      revisionNumber: 1,
    });
    ({ id: documentId, sha256 } = op.result);
  });

  it("asks for a recipient while the supplier has no email, then goes to the supplier's email", async () => {
    expect((await fileTool('deliver_document', { documentId })).code).toBe('VALIDATION_FAILED');
    await owner.suppliers.updateSupplier.mutate({
      supplierId: p.atelier.id,
      expectedVersion: p.atelier.version,
      email: 'Orders@Atelier.example',
    });
    const { result: op } = await fileTool('deliver_document', { documentId });
    expect(op).toMatchObject({ status: 'succeeded', kind: 'document_delivery' });
    expect(op.result).toMatchObject({ status: 'sent', recipient: 'orders@atelier.example' });
    const mail = received.at(-1)!;
    expect(mail.to).toEqual(['orders@atelier.example']);
    expect(mail.mail.subject).toContain(`Purchase order ${order.order.number} revision 1`);
    const [attachment] = mail.mail.attachments;
    expect(attachment!.contentType).toBe('application/pdf');
    expect(createHash('sha256').update(attachment!.content).digest('hex')).toBe(sha256);
  });

  it('a client schedule still needs its recipient, and a package holds it but never the order', async () => {
    const { result: op } = await fileTool('generate_document', { kind: 'spec_sheets' });
    expect((await fileTool('deliver_document', { documentId: op.result.id })).code).toBe('VALIDATION_FAILED');
    const { result: packed } = await fileTool('create_project_package', {});
    expect(packed).toMatchObject({ status: 'succeeded' });
    // A package is made as it is downloaded; a ZIP names its entries in plain bytes (headers, central directory).
    const link = await callTool(mcp, 'call_action', {
      name: 'download_project_package',
      arguments: { projectId: p.projectId, packageId: packed.result.id },
    });
    const res = await fetch(`${app.url}${new URL(link.result.result.url).pathname}`);
    const zip = Buffer.from(await res.arrayBuffer());
    const order = await owner.documents.getProjectDocument.query({ projectId: p.projectId, documentId });
    expect(zip.includes(Buffer.from(`documents/${op.result.filename}`))).toBe(true);
    expect(zip.includes(Buffer.from(order.filename))).toBe(false);
  });

  it('is listed to a member without pricing:read, but its file is not theirs to download', async () => {
    const assistant = await memberWithToken(app.database, 'assistant', [{ projectId: p.projectId, level: 'edit' }]);
    const as = trpc(app.url, assistant.token);
    const listed = await as.documents.listProjectDocuments.query({ projectId: p.projectId, kind: 'purchase_order' });
    expect(listed.items.map((d) => d.id)).toContain(documentId);
    const asMcp = await app.mcp(assistant.token);
    const refused = await callTool(asMcp, 'call_action', {
      name: 'download_document',
      arguments: { projectId: p.projectId, documentId },
    });
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.error!.message).toContain('pricing:read');
    const link = await callTool(mcp, 'call_action', {
      name: 'download_document',
      arguments: { projectId: p.projectId, documentId },
    });
    expect(link.result.result).toMatchObject({ documentId, mediaType: 'application/pdf' });
  });
});
