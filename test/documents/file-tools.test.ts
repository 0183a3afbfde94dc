/**
 * The file tools end to end, as an agent uses them over MCP: generate_document, export_client_schedule,
 * create_project_package, retain_client_link_pdf and deliver_document each accept an operation that the server's own
 * worker runs; with a progress token the call is answered when the file exists, and download_document /
 * download_project_package give a link whose bytes are that file. deliver_document sends through a real SMTP server in
 * this process; without email configured it is refused at once and nothing is queued.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { createTestAppAsOwner, openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { openMailServer } from '../helpers/mail.js';
import { pricedProject, TRADE4 } from './fixture.js';

const mailServer = openMailServer();

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let projectId: string;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened), mailServer.env);
beforeAll(async () => {
  projectId = (await pricedProject(owner, 'File tools house')).id;
});

/** Calls a file tool with a progress token: the answer is the finished operation. */
async function run(name: string, args: Record<string, unknown>) {
  const heard: number[] = [];
  const res = await mcp.callTool(
    { name: 'call_action', arguments: { name, arguments: { commandKey: crypto.randomUUID(), ...args } } },
    undefined,
    { onprogress: (p) => heard.push(p.progress), timeout: 120_000 },
  );
  const op = (res.structuredContent as { result?: any; code?: string }).result;
  if (!op) throw new Error(`${name}: ${JSON.stringify(res.structuredContent)}`);
  return { op, heard };
}

async function download(documentId: string, tool = 'download_document', field = 'documentId') {
  const link = await callTool(mcp, 'call_action', { name: tool, arguments: { projectId, [field]: documentId } });
  const res = await fetch(link.result.result.url);
  return { res, bytes: Buffer.from(await res.arrayBuffer()), link: link.result.result };
}

describe('file tools run as operations', () => {
  it('generate_document: the operation ends with the document, and its link serves the PDF', async () => {
    const { op } = await run('generate_document', { projectId, kind: 'client_schedule' });
    expect(op).toMatchObject({ status: 'succeeded', kind: 'document_render', action: 'generate_document' });
    expect(op.result).toMatchObject({ kind: 'client_schedule', format: 'pdf', projectId });
    const { res, bytes } = await download(op.result.id);
    expect(res.status).toBe(200);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBe(op.result.byteSize);
    expect(bytes.includes(TRADE4.toString())).toBe(false);
    // The operation is there to read afterwards, over REST too.
    const polled = await fetch(`${app.url}/v1/operations/${op.id}`, {
      headers: { authorization: `Bearer ${app.token}` },
    });
    expect(await polled.json()).toMatchObject({ status: 'succeeded', result: { id: op.result.id } });
  });

  it('export_client_schedule (XLSX) and create_project_package (ZIP) are kept documents with working links', async () => {
    const xlsx = (await run('export_client_schedule', { projectId, format: 'xlsx' })).op;
    expect(xlsx.result).toMatchObject({ kind: 'client_export', format: 'xlsx' });
    expect((await download(xlsx.result.id)).bytes.subarray(0, 2).toString()).toBe('PK');
    const pkg = (await run('create_project_package', { projectId })).op;
    expect(pkg.result).toMatchObject({ kind: 'project_package', format: 'zip' });
    const zipped = await download(pkg.result.id, 'download_project_package', 'packageId');
    expect(zipped.res.status).toBe(200);
    expect(zipped.bytes.subarray(0, 2).toString()).toBe('PK');
    const docs = await owner.documents.listProjectDocuments.query({ projectId });
    expect(docs.items.map((d) => d.id)).toEqual(expect.arrayContaining([xlsx.result.id, pkg.result.id]));
  });

  it('retain_client_link_pdf keeps what a live share shows; a revoked share fails the operation', async () => {
    const share = await owner.shares.issueProjectShare.mutate({
      projectId,
      commandKey: crypto.randomUUID(),
      confirm: true,
    });
    const kept = (await run('retain_client_link_pdf', { projectId, shareId: share.id })).op;
    expect(kept).toMatchObject({ status: 'succeeded', result: { source: { kind: 'share', shareId: share.id } } });
    await owner.shares.revokeProjectShare.mutate({ projectId, shareId: share.id, commandKey: crypto.randomUUID() });
    const refused = (await run('retain_client_link_pdf', { projectId, shareId: share.id })).op;
    expect(refused.status).toBe('failed');
    expect(typeof refused.problem.code).toBe('string');
  });

  it('deliver_document sends the PDF through the mail server and records the delivery sent', async () => {
    const { op: made } = await run('generate_document', { projectId });
    const { op } = await run('deliver_document', {
      projectId,
      documentId: made.result.id,
      recipient: 'Client@Example.com',
      subject: 'Your schedule',
    });
    expect(op.status).toBe('succeeded');
    const mail = mailServer.received.at(-1)!.mail;
    expect(mail.subject).toBe('Your schedule');
    expect((mail.to as { value: Array<{ address: string }> }).value[0]!.address).toBe('client@example.com');
    expect(mail.attachments[0]!.contentType).toBe('application/pdf');
    expect(mail.attachments[0]!.content.length).toBe(made.result.byteSize);
    const deliveries = await owner.documents.listDocumentDeliveries.query({ projectId });
    expect(deliveries.items.find((d) => d.documentId === made.result.id)).toMatchObject({ status: 'sent' });
  });
});

describe('without email configured', () => {
  let plain: TestApp;
  afterAll(async () => plain?.close());

  it('deliver_document is refused at once with DELIVERY_NOT_CONFIGURED and nothing is queued', async () => {
    let o: Trpc;
    ({ app: plain, owner: o } = await createTestAppAsOwner());
    const p = await pricedProject(o, 'No mail house');
    const client = await plain.mcp();
    const made = await client.callTool(
      {
        name: 'call_action',
        arguments: { name: 'generate_document', arguments: { projectId: p.id, commandKey: crypto.randomUUID() } },
      },
      undefined,
      { onprogress: () => {}, timeout: 120_000 },
    );
    const documentId = (made.structuredContent as { result: any }).result.result.id;
    const refused = await callTool(client, 'call_action', {
      name: 'deliver_document',
      arguments: { projectId: p.id, documentId, recipient: 'a@example.com', commandKey: crypto.randomUUID() },
    });
    expect(refused.code).toBe('DELIVERY_NOT_CONFIGURED');
    expect((await o.documents.listDocumentDeliveries.query({ projectId: p.id })).items).toEqual([]);
    expect((await o.operations.listOperations.query({ projectId: p.id })).items.map((x) => x.kind)).toEqual([
      'document_render',
    ]);
  });
});
