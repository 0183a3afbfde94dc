/**
 * Who may have a document's file: download_document declares that a purchase order (its bytes carry trade prices)
 * needs pricing:read beyond the action's documents:read, and `invoke` enforces it where it enforces scopes. An
 * assistant (documents:read, no pricing:read) is refused the order's file on every way to a file and given the client
 * schedule's: over MCP (call_action and resources/read), and over plain HTTP, where the only way to a document's bytes
 * is the link download_document mints (file tools are not REST or tRPC routes).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../helpers/calls.js';
import { http, type Trpc, trpc } from '../helpers/clients.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { issuedOrder, orderingProject } from './fixture.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let projectId: string;
let orderDoc: string;
let scheduleDoc: string;
let assistant: { token: string; mcp: Client; trpc: Trpc };
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));

/** A document rendered over MCP by the owner, once its operation has finished: its id. */
async function rendered(args: Record<string, unknown>): Promise<string> {
  const res = await mcp.callTool(
    {
      name: 'call_action',
      arguments: { name: 'generate_document', arguments: { commandKey: uuid(), projectId, ...args } },
    },
    undefined,
    { onprogress: () => undefined, timeout: 120_000 },
  );
  const op = (res.structuredContent as { result: { status: string; result: { id: string } } }).result;
  expect(op.status).toBe('succeeded');
  return op.result.id;
}

const download = (client: Client, documentId: string) =>
  callTool(client, 'call_action', { name: 'download_document', arguments: { projectId, documentId } });

const refusal = (documentId: string) =>
  `Document ${documentId} is a purchase order at trade prices; downloading it needs pricing:read (ask a studio admin).`;

beforeAll(async () => {
  const p = await orderingProject(owner, 'Download permission');
  projectId = p.projectId;
  const order = await issuedOrder(owner, p);
  orderDoc = await rendered({ kind: 'purchase_order', purchaseOrderId: order.order.id });
  scheduleDoc = await rendered({ kind: 'client_schedule' });
  const member = await memberWithToken(app.database, 'assistant', [{ projectId, level: 'edit' }]);
  assistant = { token: member.token, mcp: await app.mcp(member.token), trpc: trpc(app.url, member.token) };
});

describe('a purchase order document without pricing:read', () => {
  it('over MCP call_action: the order is FORBIDDEN with the same sentence as ever, the client schedule is not', async () => {
    const refused = await download(assistant.mcp, orderDoc);
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.error!.message).toBe(refusal(orderDoc));
    const given = await download(assistant.mcp, scheduleDoc);
    expect(given.result.result).toMatchObject({ documentId: scheduleDoc, mediaType: 'application/pdf' });
    // The owner (pricing:read) is given the order: the declaration asks for a permission, it does not hide the kind.
    expect((await download(mcp, orderDoc)).result.result).toMatchObject({ documentId: orderDoc });
  });

  it('over MCP resources/read: the order is refused, the client schedule is read through the connection', async () => {
    const uri = (id: string) => `studio://projects/${projectId}/documents/${id}`;
    await expect(assistant.mcp.readResource({ uri: uri(orderDoc) })).rejects.toThrow(refusal(orderDoc));
    const schedule = await assistant.mcp.readResource({ uri: uri(scheduleDoc) });
    const blob = Buffer.from((schedule.contents[0] as { blob: string }).blob, 'base64');
    expect(blob.subarray(0, 5).toString()).toBe('%PDF-');
    const order = await mcp.readResource({ uri: uri(orderDoc) });
    expect(
      Buffer.from((order.contents[0] as { blob: string }).blob, 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it("over HTTP: the schedule's link opens; no REST or tRPC route hands out a file", async () => {
    const given = await download(assistant.mcp, scheduleDoc);
    const res = await fetch(`${app.url}${new URL(given.result.result.url).pathname}`);
    expect(res.status).toBe(200);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // download_document is a file tool: tRPC has no procedure for it and /v1 no route, for anyone.
    const viaTrpc = await http(
      app.url,
      'GET',
      `/trpc/files.downloadDocument?input=${encodeURIComponent(JSON.stringify({ projectId, documentId: orderDoc }))}`,
      { token: assistant.token },
    );
    expect(viaTrpc.status).toBe(404);
    const viaRest = await http(app.url, 'GET', `/v1/projects/${projectId}/documents/${orderDoc}`, {
      token: assistant.token,
    });
    expect(viaRest.status).toBe(404);
    // What tRPC does give the assistant is the order's record, which carries no figure.
    const record = await assistant.trpc.documents.getProjectDocument.query({ projectId, documentId: orderDoc });
    expect(record).toMatchObject({ id: orderDoc, kind: 'purchase_order' });
  });
});
