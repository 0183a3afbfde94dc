import { readFileSync } from 'node:fs';
import { databaseEnv } from '../helpers/test-database.js';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { ROOT } from '../helpers/server.js';
import { typicalLineEdit } from './line-edit.js';
import { httpMcp } from '../helpers/e2e.js';
import { ACTIONS } from '../../actions/index.js';
import { catalogView } from '../../src/surfaces/mcp/server.js';

let app: TestApp;
const open: Client[] = [];
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await app?.close();
});

/** An MCP client over Streamable HTTP as `token`'s holder (helpers/e2e.ts), closed with the others after the file. */
async function httpClient(token: string): Promise<Client> {
  const { client } = await httpMcp(app.url, token);
  open.push(client);
  return client;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const post = (headers: Record<string, string>, body: unknown = initialize) =>
  fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

/** fetch always sends the real Host; a rebinding page's request carries another name, so send it by hand. */
function postWithHost(host: string, headers: Record<string, string> = {}): Promise<number> {
  const url = new URL(`${app.url}/mcp`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(initialize));
  });
}

describe('MCP over Streamable HTTP at /mcp', () => {
  it('lists the same tools as the in-memory server', async () => {
    const overHttp = await (await httpClient(app.token)).listTools();
    const inMemory = await (await app.mcp()).listTools();
    expect(overHttp).toEqual(inMemory);
  });

  it('does the typical line edit end to end', async () => {
    await typicalLineEdit(await httpClient(app.token), app.projectId);
  });

  it('serves the catalog resource', async () => {
    const client = await httpClient(app.token);
    const res = await client.readResource({ uri: 'service://actions/get_line' });
    expect(JSON.parse((res.contents[0] as { text: string }).text).name).toBe('get_line');
  });

  it('keeps concurrent clients apart: each answer is for its own token', async () => {
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    const [owner, watcher] = [await httpClient(app.token), await httpClient(viewer.token)];
    const ask = async (c: Client) => {
      const res = await c.callTool({ name: 'search_actions', arguments: { query: 'change a line', limit: 10 } });
      return (res.structuredContent as { actions: Array<{ name: string; allowed: boolean }> }).actions.find(
        (a) => a.name === 'update_line',
      )!.allowed;
    };
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => ask(i % 2 ? watcher : owner).then((allowed) => [i % 2, allowed] as const)),
    );
    for (const [isViewer, allowed] of answers) expect(allowed).toBe(!isViewer);
  });

  it('answers 401 with WWW-Authenticate for a missing or unknown token', async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    // /mcp is an OAuth protected resource: the challenge names its metadata (RFC 9728 §5.1; test/oauth/ for more).
    expect(none.headers.get('www-authenticate')).toBe(
      `Bearer realm="studio", resource_metadata="${app.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(((await none.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
    const bad = await post({ authorization: 'Bearer studio_unknown' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="studio", resource_metadata="[^"]+", error="invalid_token"/,
    );
    await expect(httpClient('studio_unknown')).rejects.toThrow();
  });

  it('refuses a foreign Host or Origin with 403 (DNS rebinding), before authentication', async () => {
    expect(await postWithHost('attacker.example:80')).toBe(403);
    expect(await postWithHost('attacker.example', { authorization: `Bearer ${app.token}` })).toBe(403);
    expect(await postWithHost(`localhost:${new URL(app.url).port}`, { authorization: `Bearer ${app.token}` })).toBe(
      200,
    );
    const web = await post({ origin: 'http://attacker.example', authorization: `Bearer ${app.token}` });
    expect(web.status).toBe(403);
    expect(((await web.json()) as { code: string }).code).toBe('FORBIDDEN');
    // Another page on a loopback name (another port) is not this server's origin; the server's own is.
    const otherPort = await post({ origin: 'http://localhost:5173', authorization: `Bearer ${app.token}` });
    expect(otherPort.status).toBe(403);
    const own = await post({ origin: app.url, authorization: `Bearer ${app.token}` });
    expect(own.status).toBe(200);
  });

  it('is stateless: no session id, and GET or DELETE answer 405', async () => {
    const res = await post({ authorization: `Bearer ${app.token}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(((await res.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('studio');
    const get = await fetch(`${app.url}/mcp`, {
      headers: { authorization: `Bearer ${app.token}`, accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const del = await fetch(`${app.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${app.token}` } });
    expect(del.status).toBe(405);
  });
});

describe('MCP over stdio, spawned as mcp.json says', () => {
  it('does the typical line edit end to end', async () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'mcp.json'), 'utf8')).mcpServers.studio as {
      command: string;
      args: string[];
      env: Record<string, string>;
    };
    const transport = new StdioClientTransport({
      command: config.command === 'node' ? process.execPath : config.command,
      args: config.args,
      cwd: ROOT,
      env: {
        ...(process.env as Record<string, string>),
        ...config.env,
        ...databaseEnv(app.database),
        STUDIO_TOKEN: app.token,
        STUDIO_LOG_LEVEL: 'silent',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    open.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('read_action_result');
    // The bundle answers tools/list from the list it was built with, before importing the catalog: the same list the
    // catalog builds from source (a stale or partial prebuilt list would differ here).
    expect(tools).toEqual(JSON.parse(JSON.stringify(catalogView(ACTIONS).tools)));
    await typicalLineEdit(client, app.projectId);
  });
});
