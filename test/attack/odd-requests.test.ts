/**
 * Odd paths and methods against the real server process, sent byte for byte (no `..` resolved, nothing re-encoded):
 * every refusal names a catalog code, as problem+json (or tRPC's envelope under /api/trpc, or a JSON-RPC error from
 * /mcp); never fastify's own body, never a stack trace, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { http } from '../helpers/clients.js';
import {
  expectCatalogEnvelope,
  expectCatalogProblem,
  rawExchange,
  rawRequest,
  type RawResponse,
} from '../helpers/raw-http.js';
import { expectNoInternals } from '../helpers/e2e.js';

let server: RunningServer;
let P: string; // Harbour House
let L: string; // one of its lines

beforeAll(async () => {
  server = await startServer();
  P = (await http(server.url, 'GET', '/v1/projects', { token: server.token })).body.items[0].id;
  L = (await http(server.url, 'GET', `/v1/projects/${P}/items?limit=1`, { token: server.token })).body.items[0].id;
});
afterAll(async () => server?.stop());

/** What any answer must be: a success, or a refusal in the addressed surface's envelope with a catalog code. */
function expectCatalogAnswer(res: RawResponse, where: string) {
  const what = `${where}: ${res.status} ${res.body.slice(0, 300)}`;
  expect(res.status, what).toBeGreaterThanOrEqual(200);
  expect(res.status, what).toBeLessThan(500);
  expectNoInternals(res.body);
  // fastify's own error body: {"statusCode":…,"error":"…","message":"…"}.
  expect(res.json?.statusCode, what).toBeUndefined();
  if (res.status < 400) return;
  if (where.startsWith('HEAD ')) {
    // No body to read; the headers still say what it would have been.
    expect(res.headers['content-type'] ?? '', what).toMatch(/json/);
    return;
  }
  const path = where.split(' ')[1]!;
  if (path.startsWith('/api/trpc') && !res.headers['content-type']?.startsWith('application/problem+json'))
    return expectCatalogEnvelope(res, where);
  if (path.startsWith('/mcp') && res.json?.jsonrpc === '2.0') {
    expect(typeof res.json.error?.code, what).toBe('number');
    return;
  }
  expectCatalogProblem(res, where);
}

const long = (n: number) => 'a'.repeat(n);

/** Ways out of the fonts folder: its route serves the four shipped faces by name and nothing else. */
const FONT_ESCAPES = [
  '/fonts/..%2Fpackage.json',
  '/fonts/..%2F..%2Fpackage.json',
  '/fonts/%2e%2e%2fpackage.json',
  '/fonts/..%5Cpackage.json',
  '/fonts/../package.json',
  '/fonts/inter-latin-wght-normal.woff2%00',
  '/fonts/%2Fetc%2Fpasswd',
  '/fonts/nothing.woff2',
];

/** The paths: trailing, double and encoded slashes, `..`, long ids, unicode, NUL, repeated query parameters. */
const paths = () => [
  '/',
  '//',
  '/v1',
  '/v1/',
  '/v1/projects/',
  '/v1//projects',
  '//v1/projects',
  `/v1/projects/${P}/`,
  `/v1/projects/${P}//items`,
  `/v1/projects/${P}/items/`,
  `/v1/projects/${P}/items/${L}/`,
  `/v1/projects/${P}%2Fitems`,
  `/v1/projects/${P}/items%2F${L}`,
  `/v1/projects/${P}/../${P}`,
  '/v1/projects/../../etc/passwd',
  '/v1/projects/%2e%2e/%2e%2e/etc/passwd',
  `/v1/projects/${long(1500)}`,
  `/v1/projects/${long(5000)}`,
  `/v1/projects/${P}/items/${long(20_000)}`,
  '/v1/projects/é',
  '/v1/projects/%C3%A9',
  '/v1/projects/%F0%9F%9B%8B',
  '/v1/projects/%00',
  '/v1/projects/a%00b',
  '/v1/projects/%zz',
  '/v1/projects?limit=1&limit=2',
  `/v1/projects/${P}/items?status=ordered&status=delivered`,
  `/v1/projects/${P}/items?limit=1&limit=1&cursor=&cursor=`,
  '/v1/projects?%00=1',
  '/v1/projects?__proto__[x]=1',
  '/api/trpc',
  '/api/trpc/',
  '/api/trpc//',
  '/api/trpc/projects.listStudioProjects/',
  '/api/trpc/projects.listStudioProjects?input=%00',
  '/api/trpc/projects.listStudioProjects?input=1&input=2',
  '/api/trpc/projects.listStudioProjects?batch=1&batch=1&input=x',
  '/api/trpc/projects%2ElistStudioProjects',
  '/api/trpc/projects%2FlistStudioProjects',
  '/api/trpc/%zz',
  `/api/trpc/${long(5000)}`,
  '/api/trpc/../../v1/projects',
  '/api/trpc/é',
  '/mcp/',
  '/mcp//',
  '/mcp%2F',
  '/mcp?x=1&x=2',
  '/mcp/../v1/projects',
  '/docs/',
  '/docs//openapi.json',
  '/docs/openapi.json/',
  '/docs/%2e%2e/v1/projects',
  '/docs/api/actions.json%00',
  '/docs/../../../etc/passwd',
  ...FONT_ESCAPES,
  '/nothing',
  '/.env',
  '/v2/projects',
  '/api',
  '/api/',
  '/%2e%2e/',
  `/${long(20_000)}`,
];

describe('odd paths, with a valid token and without', () => {
  it('every GET answers a success or a catalog refusal', async () => {
    for (const path of paths()) {
      for (const token of [server.token, undefined]) {
        const res = await rawRequest(server.url, {
          method: 'GET',
          path,
          headers: token ? [['Authorization', `Bearer ${token}`]] : [],
        });
        expectCatalogAnswer(res, `GET ${path}${token ? '' : ' (no token)'}`);
      }
    }
  });

  it('a trailing slash is another path: 404 NOT_FOUND naming the path without it', async () => {
    const res = await rawRequest(server.url, {
      method: 'GET',
      path: `/v1/projects/${P}/`,
      headers: [['Authorization', `Bearer ${server.token}`]],
    });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('NOT_FOUND');
    expect(res.json.detail).toContain(`use /v1/projects/${P}.`);
  });
});

describe('the fonts folder', () => {
  it('answers 404 NOT_FOUND to every name it does not ship, encoded slashes and dots too, and serves its faces', async () => {
    for (const path of FONT_ESCAPES) {
      const res = await rawRequest(server.url, { method: 'GET', path });
      expect(res.status, path).toBe(404);
      expect(res.json?.code, path).toBe('NOT_FOUND');
      expect(res.body, path).not.toContain('studio-server');
      expect(res.body, path).not.toContain('root:');
    }
    const face = await rawRequest(server.url, { method: 'GET', path: '/fonts/inter-latin-wght-normal.woff2' });
    expect(face.status).toBe(200);
    expect(face.headers['content-type']).toBe('font/woff2');
  });
});

describe('odd methods on known paths', () => {
  const known = () => [
    '/v1/projects',
    `/v1/projects/${P}`,
    `/v1/projects/${P}/items/${L}`,
    '/api/trpc/projects.listStudioProjects',
    '/api/trpc/projects.createStudioProject',
    '/mcp',
    '/docs',
    '/docs/openapi.json',
    '/api/agent-results',
    '/health',
  ];

  it('PROPFIND, OPTIONS, HEAD, PUT, DELETE, PATCH, TRACE answer a success or a catalog refusal', async () => {
    for (const path of known()) {
      for (const method of ['PROPFIND', 'OPTIONS', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'MKCOL', 'SEARCH']) {
        for (const token of [server.token, undefined]) {
          const res = await rawRequest(server.url, {
            method,
            path,
            headers: token ? [['Authorization', `Bearer ${token}`]] : [],
          });
          expectCatalogAnswer(res, `${method} ${path}${token ? '' : ' (no token)'}`);
        }
      }
    }
  });

  it('a known path answers another method 405 with the methods the router really serves there', async () => {
    const cases: Array<[string, string, string]> = [
      ['PROPFIND', '/api/trpc/projects.listStudioProjects', 'GET, HEAD, POST'],
      ['PUT', '/api/trpc/projects.listStudioProjects', 'GET, HEAD, POST'],
      ['OPTIONS', `/v1/projects/${P}`, 'GET, HEAD'],
      ['DELETE', `/v1/projects/${P}/items/${L}`, 'GET, HEAD, PATCH'],
      ['PUT', '/mcp', 'DELETE, GET, HEAD, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await rawRequest(server.url, {
        method,
        path,
        headers: [['Authorization', `Bearer ${server.token}`]],
      });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      expect(res.json?.code ?? res.json?.error?.data?.serviceCode).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('a method the HTTP parser does not know, or bytes that are not HTTP, answer a catalog problem', async () => {
    for (const head of [
      'FOO /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      'GET /v1/projects\0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      'GET /v1/projects HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n',
      'GET /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n',
      `GET /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${long(20_000)}\r\n\r\n`,
      'POST /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
      'POST /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      'POST /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n',
      'GET /v1/projects/é HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      '\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03', // a TLS ClientHello on the plain-HTTP port
    ]) {
      const res = await rawExchange(server.url, Buffer.from(head, head.startsWith('\x16') ? 'latin1' : 'utf8'));
      expectCatalogProblem(res, JSON.stringify(head.slice(0, 60)));
    }
  });

  it('/mcp answers a JSON-RPC error to a body that is not JSON-RPC', async () => {
    for (const body of ['{}', '[]', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","id":1,"method":"no/such"}']) {
      const res = await rawRequest(server.url, {
        method: 'POST',
        path: '/mcp',
        headers: [
          ['Authorization', `Bearer ${server.token}`],
          ['Content-Type', 'application/json'],
          ['Accept', 'application/json, text/event-stream'],
        ],
        body,
      });
      expectCatalogAnswer(res, `POST /mcp ${body}`);
    }
  });
});
