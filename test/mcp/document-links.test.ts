/**
 * Links that work over stdio (issue 26, item 2). An HTTP server beats in the database while it listens; `studio mcp`
 * over stdio builds its links on the address that server reports (not its own default), and says plainly when no
 * server is known to be serving. Over MCP a document also comes through the connection itself: download_document's
 * answer carries a resource_link, read with resources/read as a blob, for the caller's own studio only.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioWithOwner, mintToken } from '../../src/domain/studio/onboarding.js';
import { MCP_DOCUMENT_LIMIT } from '../../src/surfaces/mcp/document-resources.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { ROOT } from '../helpers/server.js';
import { databaseEnv } from '../helpers/test-database.js';
import { uuid } from '../helpers/ids.js';
import { httpMcp } from '../helpers/e2e.js';

let app: TestApp;
let documentId: string;
let pdf: Buffer;
const open: Client[] = [];

beforeAll(async () => {
  app = await createTestApp();
  const owner = await app.mcp();
  const res = await owner.callTool(
    {
      name: 'call_action',
      arguments: { name: 'generate_document', arguments: { projectId: app.projectId, commandKey: uuid() } },
    },
    undefined,
    { onprogress: () => {}, timeout: 120_000 },
  );
  const op = (res.structuredContent as { result: { status: string; result: { id: string } } }).result;
  expect(op.status).toBe('succeeded');
  documentId = op.result.id;
  const file = await fetch(await linkOf(owner).then((l) => l.url));
  pdf = Buffer.from(await file.arrayBuffer());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
}, 180_000);
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await app?.close();
});

interface Link {
  url: string;
  served: boolean;
  linkNote?: string;
  resourceLink?: { uri: string; mimeType?: string; size?: number };
}

/** download_document through call_action, with the resource_link its answer carries beside the text. */
async function linkOf(client: Client, projectId = app.projectId): Promise<Link> {
  const res = await client.callTool({
    name: 'call_action',
    arguments: { name: 'download_document', arguments: { projectId, documentId } },
  });
  expect(res.isError, JSON.stringify(res.structuredContent)).toBeFalsy();
  const content = res.content as Array<{ type: string; uri?: string; mimeType?: string; size?: number }>;
  const link = content.find((c) => c.type === 'resource_link');
  return {
    ...(res.structuredContent as { result: Link }).result,
    ...(link ? { resourceLink: link as Link['resourceLink'] } : {}),
  };
}

async function stdioClient(): Promise<Client> {
  const { STUDIO_BASE_URL: _unset, ...env } = process.env as Record<string, string>;
  const client = new Client({ name: 'stdio-links', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['dist/studio.mjs', 'mcp'],
      cwd: ROOT,
      env: {
        ...env,
        ...databaseEnv(app.database),
        // The same files and link key as the HTTP server (on PostgreSQL the database names neither).
        STUDIO_DATABASE: app.rt.config.databasePath,
        STUDIO_BLOB_DIR: app.rt.config.blobDir,
        STUDIO_TOKEN: app.token,
        STUDIO_LOG_LEVEL: 'silent',
      },
      stderr: 'ignore',
    }),
  );
  open.push(client);
  return client;
}

/** An MCP client over Streamable HTTP as `token`'s holder (helpers/e2e.ts), closed with the others after the file. */
async function httpClient(token: string): Promise<Client> {
  const { client } = await httpMcp(app.url, token);
  open.push(client);
  return client;
}

async function readBlob(client: Client, uri: string) {
  const res = await client.readResource({ uri });
  const item = res.contents[0] as { uri: string; mimeType?: string; blob?: string };
  return { item, bytes: Buffer.from(item.blob ?? '', 'base64') };
}

describe('links over stdio', () => {
  it('name the address the running HTTP server beats from, not stdio’s own default, and the link opens', async () => {
    const stdio = await stdioClient();
    const link = await linkOf(stdio);
    expect(link.url.startsWith(`${app.url}/downloads/`)).toBe(true);
    expect(link.served).toBe(true);
    expect(link.linkNote).toBeUndefined();
    const res = await fetch(link.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);

    const share = await stdio.callTool({
      name: 'call_action',
      arguments: {
        name: 'issue_project_share',
        arguments: { input: { projectId: app.projectId, commandKey: uuid(), confirm: true } },
      },
    });
    const issued = (share.structuredContent as { result: { url: string; served: boolean } }).result;
    expect(issued.url.startsWith(`${app.url}/s/`)).toBe(true);
    expect(issued.served).toBe(true);
    expect((await fetch(issued.url)).status).toBe(200);
  });

  it('say plainly that `studio serve` is needed when no server has beaten lately; the document still reads over MCP', async () => {
    const stdio = await stdioClient();
    await app.rt.store.write(async (tx) => {
      await sql`DELETE FROM serving_heartbeats`.execute(tx);
    });
    const link = await linkOf(stdio);
    expect(link.served).toBe(false);
    expect(link.linkNote).toMatch(/`studio serve`/);
    // With no heartbeat to go by, the configured default: nothing listens there in this test.
    expect(link.url.startsWith('http://127.0.0.1:3000/downloads/')).toBe(true);
    expect(link.linkNote).toContain('http://127.0.0.1:3000');
    const { item, bytes } = await readBlob(stdio, link.resourceLink!.uri);
    expect(item.mimeType).toBe('application/pdf');
    expect(bytes.equals(pdf)).toBe(true);
  });
});

describe('documents as MCP resources', () => {
  it('download_document carries a resource_link whose blob is the file, over Streamable HTTP', async () => {
    const client = await httpClient(app.token);
    const link = await linkOf(client);
    expect(link.served).toBe(true);
    expect(link.url.startsWith(app.url)).toBe(true);
    expect(link.resourceLink).toMatchObject({
      uri: `studio://projects/${app.projectId}/documents/${documentId}`,
      mimeType: 'application/pdf',
      size: pdf.length,
    });
    const { bytes } = await readBlob(client, link.resourceLink!.uri);
    expect(bytes.equals(pdf)).toBe(true);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain(
      'studio://projects/{projectId}/documents/{documentId}',
    );
  });

  it('another studio’s member cannot read the document by its URI, nor an unknown one be read', async () => {
    const now = new Date().toISOString();
    const { memberId } = await createStudioWithOwner(
      app.rt.store.db,
      { name: 'Elsewhere Studio', currency: 'GBP', codePrefix: 'EL' },
      { email: 'links-elsewhere@example.test', name: 'El' },
      now,
    );
    const { token } = await mintToken(app.rt.store.db, memberId, 'elsewhere', now);
    const outsider = await httpClient(token);
    const uri = `studio://projects/${app.projectId}/documents/${documentId}`;
    await expect(outsider.readResource({ uri })).rejects.toThrow(/No document resource/);
    const owner = await httpClient(app.token);
    await expect(owner.readResource({ uri: `studio://projects/${app.projectId}/documents/${uuid()}` })).rejects.toThrow(
      /No document resource/,
    );
    await expect(owner.readResource({ uri: 'studio://projects/x' })).rejects.toThrow(/No document resource/);
  });

  it(`a document over ${MCP_DOCUMENT_LIMIT} bytes is refused with the HTTP download to use instead`, async () => {
    await app.rt.store.write(async (tx) => {
      await sql`UPDATE documents SET byte_size = ${MCP_DOCUMENT_LIMIT + 1} WHERE id = ${documentId}`.execute(tx);
    });
    const client = await httpClient(app.token);
    const link = await linkOf(client);
    expect(link.resourceLink?.size).toBe(MCP_DOCUMENT_LIMIT + 1);
    await expect(client.readResource({ uri: link.resourceLink!.uri })).rejects.toThrow(/4 MiB.*download_document/);
  });
});
