/**
 * Download links (issue 29, item 7): a link is made by a member through one credential, and stops working, at the
 * next download, once that member is removed, that credential is revoked, or the document it names is archived. The
 * refusal is the one an expired link gets, byte for byte. A link made for a document already archived works.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportClientSchedule } from '../../src/domain/documents/generate.js';
import { DOWNLOAD_REFUSED } from '../../src/surfaces/downloads.js';
import { workFor } from '../documents/work.js';
import { callAction, callTool } from '../helpers/calls.js';
import { httpMcp } from '../helpers/e2e.js';
import { fromOutside, memberWithToken } from '../helpers/fixtures.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { givePassword, tokensFor } from '../oauth/oauth-http.js';

let app: TestApp;
let owner: Client;

beforeAll(async () => {
  app = await createTestApp();
  owner = await app.mcp();
});
afterAll(async () => app?.close());

const newDocument = async () =>
  (await exportClientSchedule(await workFor(app), { projectId: app.projectId, format: 'csv' })).id as string;

/** A designer of the demo project with an API token, connected over MCP. */
async function designer() {
  const m = await memberWithToken(app.database, 'designer', [{ projectId: app.projectId, level: 'edit' }]);
  const tokenId = await fromOutside(app.database, async (db) => {
    const row = await db.selectFrom('api_tokens').select('id').where('member_id', '=', m.memberId).executeTakeFirst();
    return row!.id;
  });
  return { ...m, tokenId, mcp: await app.mcp(m.token) };
}

/** A file action through MCP's call_action (its fields at the top level): its result, or the refusal. */
async function act(mcp: Client, name: string, args: Record<string, unknown>) {
  const out = await callTool(mcp, 'call_action', { name, arguments: args });
  return out.error ? out : { result: out.result.result };
}

async function linkFor(mcp: Client, documentId: string): Promise<string> {
  const out = await act(mcp, 'download_document', { projectId: app.projectId, documentId });
  expect(out.result?.url, JSON.stringify(out)).toBeTruthy();
  return new URL(out.result.url).pathname;
}

async function download(path: string) {
  const res = await fetch(`${app.url}${path}`);
  return { status: res.status, body: await res.text() };
}

const expectRefused = (res: { status: number; body: string }) => {
  expect(res.status).toBe(403);
  expect(res.body).toBe(DOWNLOAD_REFUSED);
};

describe('a download link', () => {
  it('stops working once the member who made it is removed from the studio', async () => {
    const d = await designer();
    const link = await linkFor(d.mcp, await newDocument());
    expect((await download(link)).status).toBe(200);
    await fromOutside(app.database, (db) =>
      db.updateTable('members').set({ removed_at: new Date().toISOString() }).where('id', '=', d.memberId).execute(),
    );
    expectRefused(await download(link));
  });

  it('stops working once the API token that made it is revoked, while the member stays', async () => {
    const d = await designer();
    const documentId = await newDocument();
    const link = await linkFor(d.mcp, documentId);
    const other = await linkFor(owner, documentId);
    expect((await download(link)).status).toBe(200);
    await fromOutside(app.database, (db) =>
      db.updateTable('api_tokens').set({ revoked_at: new Date().toISOString() }).where('id', '=', d.tokenId).execute(),
    );
    expectRefused(await download(link));
    // A link someone else made for the same document is not touched.
    expect((await download(other)).status).toBe(200);
  });

  it('made over an OAuth connection, stops working once the client revokes that connection', async () => {
    const owner = { email: 'alex@hartley-rowe.example', password: 'harbour-house-2026' };
    await givePassword(app.database, owner.email, owner.password);
    const t = await tokensFor(app.url, owner);
    const connected = await httpMcp(app.url, t.access_token);
    try {
      const link = await linkFor(connected.client, await newDocument());
      expect((await download(link)).status).toBe(200);
      const revoked = await fetch(`${app.url}/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: t.clientId, token: t.refresh_token }).toString(),
      });
      expect(revoked.status).toBe(200);
      expectRefused(await download(link));
    } finally {
      await connected.close();
    }
  });

  it('stops working once its document is archived; a link made for the archived document works', async () => {
    const documentId = await newDocument();
    const link = await linkFor(owner, documentId);
    expect((await download(link)).status).toBe(200);
    const archived = await callAction(owner, 'archive_project_document', { projectId: app.projectId, documentId });
    expect(archived.code, JSON.stringify(archived)).toBeUndefined();
    expectRefused(await download(link));
    const fresh = await linkFor(owner, documentId);
    expect((await download(fresh)).status).toBe(200);
  });
});
