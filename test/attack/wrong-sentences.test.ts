/**
 * Refusals that said something untrue to the person reading them (issue 29, item 8): each answer keeps its status and
 * catalog code, and its sentence now states what the server really does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixelBombPng } from '../helpers/images.js';
import { REGISTRATIONS_PER_HOUR } from '../../src/surfaces/oauth/register.js';
import { ACTIONS } from '../../actions/index.js';
import { http } from '../helpers/clients.js';
import { expectSentence } from '../helpers/e2e.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import {
  bodyExchange,
  expectCatalogEnvelope,
  expectCatalogProblem,
  rawExchange,
  rawRequest,
} from '../helpers/raw-http.js';
import { photographsPath, postFile } from '../helpers/uploads.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => app?.close());

describe('a path ending in a slash', () => {
  it.each(['/v1/projects/', '/v1/projects//'])(
    '%s is 404 NOT_FOUND naming the path without the slash',
    async (path) => {
      for (const auth of [[['Authorization', `Bearer ${app.token}`]] as Array<[string, string]>, []]) {
        const res = await rawRequest(app.url, { method: 'GET', path, headers: auth });
        expect(res.status, res.body).toBe(404);
        expectCatalogProblem(res, path);
        expect(res.json.code).toBe('NOT_FOUND');
        expect(res.json.detail).toContain('use /v1/projects.');
        expect(res.json.detail).not.toMatch(/never empty/);
      }
    },
  );

  it('a member path with a slash still names its own path without it', async () => {
    const path = `/v1/projects/${app.projectId}/`;
    const res = await rawRequest(app.url, { method: 'GET', path, headers: [['Authorization', `Bearer ${app.token}`]] });
    expect(res.status, res.body).toBe(404);
    expect(res.json.detail).toContain(`use /v1/projects/${app.projectId}.`);
  });
});

describe('a body larger than a route accepts', () => {
  it('/mcp states its own limit (34 MiB), not the default', async () => {
    const res = await bodyExchange(app.url, {
      path: '/mcp',
      declared: 35 * 1024 * 1024,
      send: Buffer.from('{"jsonrpc":"2.0"'),
      headers: [
        ['Authorization', `Bearer ${app.token}`],
        ['Accept', 'application/json, text/event-stream'],
      ],
    });
    expect(res?.status).toBe(413);
    expectCatalogProblem(res!, 'POST');
    expect(res!.json.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res!.json.detail).toMatch(/\b34 MiB\b/);
    expect(res!.json.detail).not.toMatch(/1 MiB/);
  });

  it('a JSON route states its limit (1 MiB)', async () => {
    const res = await bodyExchange(app.url, {
      path: '/v1/projects',
      declared: 2 * 1024 * 1024,
      send: Buffer.from('{"name":"'),
      headers: [['Authorization', `Bearer ${app.token}`]],
    });
    expect(res?.status).toBe(413);
    expectCatalogProblem(res!, 'POST');
    expect(res!.json.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res!.json.detail).toMatch(/\b1 MiB\b/);
  });
});

describe('an image just past the pixel limit', () => {
  it('is refused naming its real size, not as many megapixels as the limit', async () => {
    const lines = await fetch(`${app.url}/v1/projects/${app.projectId}/items?limit=1`, {
      headers: { authorization: `Bearer ${app.token}` },
    });
    const line = ((await lines.json()) as any).items[0].id;
    const bomb = await pixelBombPng(10_001, 10_000);
    const res = await postFile(app, photographsPath(app.projectId, line, 'big.png'), bomb, 'image/png');
    const body = (await res.json()) as any;
    expect([res.status, body.code]).toEqual([422, 'IMAGE_TOO_LARGE']);
    expect(body.detail).toContain('10001 × 10000 pixels (100.01 megapixels)');
    expect(body.detail).toContain('up to 100 megapixels');
  });
});

describe('dynamic client registration past its hourly bound', () => {
  it('counts attempts, refused ones included, and says so', async () => {
    const register = (body: unknown) =>
      fetch(`${app.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // Every attempt here is refused (no redirect_uris): no client is ever registered.
    for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) expect((await register({ client_name: 'x' })).status).toBe(400);
    const res = await register({ client_name: 'x', redirect_uris: ['http://127.0.0.1:9/cb'] });
    const body = (await res.json()) as any;
    expect(res.status).toBe(429);
    expect(body.error).toBe('too_many_requests');
    expect(body.error_description).toMatch(new RegExp(`\\b${REGISTRATIONS_PER_HOUR} registration attempts\\b`));
    expect(body.error_description).not.toMatch(/registered \d+ clients/);
  });
});

describe('a studio name', () => {
  const procedure = async (name: string, input: unknown) => {
    const action = ACTIONS.find((a) => a.name === name)!;
    return http(app.url, 'POST', `/api/trpc/${action.trpcPath}`, { token: app.token, body: input });
  };

  it.each(['Hartley\r\nBcc: x@example.com', 'Hartley\nRowe', 'Hartley\tRowe', 'Hartley\u007f', 'Hartley\u0085'])(
    'holding a control character (%j) is refused, on creation and on renaming',
    async (name) => {
      const studio = (
        await http(app.url, 'GET', `/api/trpc/${ACTIONS.find((a) => a.name === 'get_studio')!.trpcPath}`, {
          token: app.token,
        })
      ).body.result.data;
      for (const res of [
        await procedure('create_studio', { name, currency: 'GBP', commandKey: crypto.randomUUID() }),
        await procedure('update_studio', { name, expectedVersion: studio.version }),
      ]) {
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error.data.serviceCode).toBe('VALIDATION_FAILED');
        expect(res.body.error.message).toMatch(/control character/);
        expectSentence(res.body.error.message);
      }
    },
  );

  it('of one line is still taken, trimmed', async () => {
    const studio = (
      await http(app.url, 'GET', `/api/trpc/${ACTIONS.find((a) => a.name === 'get_studio')!.trpcPath}`, {
        token: app.token,
      })
    ).body.result.data;
    const res = await procedure('update_studio', {
      name: '  Hartley & Rowe Interiors  ',
      expectedVersion: studio.version,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.data.name).toBe('Hartley & Rowe Interiors');
  });
});

describe('an HTTP/1.1 request without a Host header', () => {
  const without = (path: string, version = '1.1') =>
    rawExchange(
      app.url,
      Buffer.from(`GET ${path} HTTP/${version}\r\nAuthorization: Bearer ${app.token}\r\nConnection: close\r\n\r\n`),
    );

  it.each(['/v1/projects', '/health', '/nothing', '/login'])(
    'on %s is 400 VALIDATION_FAILED as a problem',
    async (path) => {
      const res = await without(path);
      expect(res.status, res.wire.slice(0, 300)).toBe(400);
      expectCatalogProblem(res, path);
      expect(res.json.code).toBe('VALIDATION_FAILED');
      expect(res.json.detail).toMatch(/no Host header/);
    },
  );

  it('under /api/trpc is 400 in its envelope', async () => {
    const path = '/api/trpc/projects.listStudioProjects';
    const res = await without(path);
    expect(res.status, res.wire.slice(0, 300)).toBe(400);
    expectCatalogEnvelope(res, path);
    expect(res.json.error.data.serviceCode).toBe('VALIDATION_FAILED');
    expect(res.json.error.message).toMatch(/no Host header/);
  });

  it('HTTP/1.0, which has no Host, is still answered', async () => {
    const res = await without('/v1/projects', '1.0');
    expect(res.status, res.wire.slice(0, 300)).toBe(200);
    expect(res.json.items.length).toBeGreaterThan(0);
  });
});
