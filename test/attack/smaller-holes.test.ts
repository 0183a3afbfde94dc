/**
 * Smaller holes, against the real server process: a duplicate Host header, web origins other than the server's own,
 * and the owner token printed on every start.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { expectCatalogEnvelope, expectCatalogProblem, rawExchange, rawRequest, serveOn } from '../helpers/raw-http.js';

const CONFIGURED = 'https://app.example.com';
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ STUDIO_ALLOWED_ORIGINS: `${CONFIGURED}, https://other.example.com:8443` });
});
afterAll(async () => server?.stop());

const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
/** A ping to /mcp as the owner, with extra headers. */
const mcp = (headers: Array<[string, string]>) =>
  rawRequest(server.url, {
    method: 'POST',
    path: '/mcp',
    headers: [
      ['Authorization', `Bearer ${server.token}`],
      ['Content-Type', 'application/json'],
      ['Accept', 'application/json, text/event-stream'],
      ...headers,
    ],
    body: ping,
  });

describe('a duplicate Host header', () => {
  it.each(['/mcp', '/v1/projects', '/api/trpc/projects.listStudioProjects'])('on %s answers 400', async (path) => {
    const { host } = new URL(server.url);
    for (const second of ['attacker.example', host]) {
      const head = [
        `${path === '/mcp' ? 'POST' : 'GET'} ${path} HTTP/1.1`,
        `Host: ${host}`,
        `Host: ${second}`,
        `Authorization: Bearer ${server.token}`,
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        `Content-Length: ${path === '/mcp' ? ping.length : 0}`,
        'Connection: close',
      ].join('\r\n');
      const res = await rawExchange(server.url, Buffer.from(`${head}\r\n\r\n${path === '/mcp' ? ping : ''}`));
      expect(res.status, `${path} with Host ${host} and ${second}`).toBe(400);
      // In the addressed surface's envelope: tRPC's under /api/trpc, problem+json elsewhere.
      if (path.startsWith('/api/trpc')) {
        expectCatalogEnvelope(res, path);
        expect(res.json.error.data.serviceCode).toBe('VALIDATION_FAILED');
        expect(res.json.error.message).toMatch(/more than one Host/);
      } else {
        expectCatalogProblem(res, path);
        expect(res.json.code).toBe('VALIDATION_FAILED');
        expect(res.json.detail).toMatch(/more than one Host/);
      }
    }
  });
});

describe('/mcp accepts only its own web origin and the configured ones', () => {
  it('refuses another port on a loopback name, another loopback name, other schemes and "null" with 403', async () => {
    const { port } = new URL(server.url);
    for (const origin of [
      `http://127.0.0.1:${Number(port) + 1}`,
      'http://localhost:5173',
      `http://localhost:${port}`,
      `https://127.0.0.1:${port}`,
      'http://[::1]:3000',
      'null',
      'http://app.example.com',
      'https://app.example.com:444',
      'https://attacker.example',
    ]) {
      const res = await mcp([['Origin', origin]]);
      expect(res.status, origin).toBe(403);
      expectCatalogProblem(res, origin);
      expect(res.json.code).toBe('FORBIDDEN');
    }
  });

  it('answers its own origin, the configured origins and no Origin at all', async () => {
    for (const origin of [server.url, CONFIGURED, `${CONFIGURED}/`, 'https://other.example.com:8443', undefined]) {
      const res = await mcp(origin === undefined ? [] : [['Origin', origin]]);
      expect(res.status, String(origin)).toBe(200);
      expect(res.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
  });
});

describe('the owner token is printed once', () => {
  it('the first start prints it; a later start over the same database prints only where it is kept', async () => {
    // startServer read the token from the first start's banner.
    expect(server.token).toMatch(/^studio_/);
    const again = await serveOn(server.databaseEnv);
    try {
      expect(again.stdout).not.toContain(server.token);
      expect(again.stdout).not.toMatch(/studio_[A-Za-z0-9_-]{20,}/);
      const file = /\n {2}Token {6}kept in (\S*owner-token)/.exec(again.stdout)?.[1];
      expect(file, again.stdout).toBeDefined();
      // The file it points to holds the token, which still works.
      const token = readFileSync(resolve(file!), 'utf8').trim();
      expect(token).toBe(server.token);
      const res = await rawRequest(again.url, {
        method: 'GET',
        path: '/v1/projects',
        headers: [['Authorization', `Bearer ${token}`]],
      });
      expect(res.status).toBe(200);
    } finally {
      await again.stop();
    }
  });
});
