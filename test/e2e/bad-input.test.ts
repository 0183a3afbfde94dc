/**
 * Bad requests against the real server process, with plain fetch: each is refused with its status, its stable code,
 * a sentence (never a stack trace) as problem+json, and leaves everything exactly as it was.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, openServer } from '../helpers/server.js';
import { http, seenBodies, type HttpResult } from '../helpers/clients.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { expectProblem } from '../helpers/e2e.js';
import { newId } from '../../src/core/ids.js';

let server: RunningServer;
let A: string; // Harbour House
let B: string; // a second project of the same studio
let sectionA: string;
let lineId: string;
let viewerToken: string;

const get = (path: string, token = server.token, headers: Record<string, string> = {}) =>
  http(server.url, 'GET', path, { token, headers });
const linePath = (project = A, item = lineId) => `/v1/projects/${project}/items/${item}`;

async function currentEtag(): Promise<string> {
  const res = await get(linePath());
  expect(res.status).toBe(200);
  return res.headers.get('etag')!;
}

/** Everything a refused request could have touched: the line (body and ETag), both audit feeds, the line counts. */
async function snapshot() {
  const line = await get(linePath());
  const feed = async (p: string) => {
    const res = await get(`/v1/projects/${p}/audit?limit=1000`);
    expect(res.status).toBe(200);
    return { count: res.body.items.length, newest: res.body.items[0]?.id ?? null };
  };
  const count = async (p: string) =>
    (await get(`/v1/projects/${p}/items?limit=1000&archived=include`)).body.items.length;
  return {
    line: line.body,
    etag: line.headers.get('etag'),
    auditA: await feed(A),
    auditB: await feed(B),
    linesA: await count(A),
    linesB: await count(B),
  };
}

openServer((started) => (server = started));
beforeAll(async () => {
  const projects = await get('/v1/projects');
  A = projects.body.items.find((p: { name: string }) => p.name === 'Harbour House').id;
  const project = await get(`/v1/projects/${A}`);
  sectionA = project.body.sections[0].id;
  lineId = (await get(`/v1/projects/${A}/items?limit=1`)).body.items[0].id;
  const created = await http(server.url, 'POST', '/v1/projects', {
    token: server.token,
    body: { name: 'Quay Cottage', sections: ['Hall'] },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(created.status).toBe(201);
  B = created.body.id;
  viewerToken = (await memberWithToken(server.database, 'viewer', [{ projectId: A, level: 'view' }])).token;
});

interface BadCase {
  name: string;
  send: (etag: string) => Promise<HttpResult>;
  status: number;
  code: string;
  /** A field the problem's errors[] must name, when the failure is about one field. */
  field?: string;
}

const patch = (
  body: unknown,
  etag: string,
  opts: { token?: string | null; project?: string; headers?: Record<string, string> } = {},
) =>
  http(server.url, 'PATCH', linePath(opts.project), {
    token: opts.token === null ? undefined : (opts.token ?? server.token),
    body,
    headers: { 'if-match': etag, ...(opts.headers ?? {}) },
  });

const CASES: BadCase[] = [
  {
    name: 'malformed JSON',
    send: (etag) =>
      http(server.url, 'PATCH', linePath(), {
        token: server.token,
        rawBody: '{"heading": "Sofa",',
        headers: { 'content-type': 'application/merge-patch+json', 'if-match': etag },
      }),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'a JSON array instead of an object',
    send: (etag) => patch([{ heading: 'Sofa' }], etag),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'wrong type (heading: number)',
    send: (etag) => patch({ heading: 42 }, etag),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'heading',
  },
  {
    name: 'wrong type (leadTimeDays: text)',
    send: (etag) => patch({ leadTimeDays: 'ten' }, etag),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'leadTimeDays',
  },
  {
    name: 'wrong enum value (status)',
    send: (etag) => patch({ status: 'finished' }, etag),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'status',
  },
  {
    name: 'unknown field',
    send: (etag) => patch({ heading: 'Sofa', colour: 'red' }, etag),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'money as a JSON number',
    send: (etag) => patch({ tradePrice: { state: 'set', amount4: 12.5 } }, etag),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'tradePrice.amount4',
  },
  {
    name: 'money with more than 4 decimals',
    send: (etag) => patch({ retailPrice: { state: 'set', amount4: '12.34567' } }, etag),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'retailPrice.amount4',
  },
  {
    name: 'a price with an amount but a non-set state',
    send: (etag) => patch({ retailPrice: { state: 'tbc', amount4: '125000' } }, etag),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'an oversized body (> 1 MiB)',
    send: (etag) => patch({ description: 'x'.repeat(1024 * 1024 + 10) }, etag),
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    name: 'an unsupported media type',
    send: (etag) =>
      http(server.url, 'PATCH', linePath(), {
        token: server.token,
        rawBody: 'heading=Sofa',
        headers: { 'content-type': 'text/plain', 'if-match': etag },
      }),
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  { name: 'an unknown line id (read)', send: () => get(linePath(A, newId())), status: 404, code: 'NOT_FOUND' },
  {
    name: 'an unknown line id (write)',
    send: (etag) =>
      http(server.url, 'PATCH', linePath(A, newId()), {
        token: server.token,
        body: { heading: 'Sofa' },
        headers: { 'if-match': etag },
      }),
    status: 404,
    code: 'NOT_FOUND',
  },
  { name: 'an unknown project id', send: () => get(linePath(newId())), status: 404, code: 'NOT_FOUND' },
  { name: 'a line of project A read under project B', send: () => get(linePath(B)), status: 404, code: 'NOT_FOUND' },
  {
    name: 'a line of project A patched under project B',
    send: (etag) => patch({ heading: 'Moved?' }, etag, { project: B }),
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'a section of project B named in a line of project A',
    send: async (etag) => {
      const sectionB = (await get(`/v1/projects/${B}`)).body.sections[0].id;
      return http(server.url, 'POST', `${linePath()}/placement`, {
        token: server.token,
        body: { sectionId: sectionB },
        headers: { 'if-match': etag },
      });
    },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'a malformed id in the path (ids are opaque: the same 404 as an unknown one)',
    send: () => get(linePath(A, 'not-an-id')),
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'a bad cursor',
    send: () => get(`/v1/projects/${A}/items?cursor=garbage`),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'cursor',
  },
  {
    name: 'a non-numeric limit',
    send: () => get(`/v1/projects/${A}/items?limit=abc`),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'limit',
  },
  {
    name: 'an unknown query parameter',
    send: () => get(`/v1/projects/${A}/items?colour=red`),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'a prototype-poisoning body',
    send: (etag) =>
      http(server.url, 'PATCH', linePath(), {
        token: server.token,
        rawBody: '{"heading":"Sofa","__proto__":{"isAdmin":true}}',
        headers: { 'content-type': 'application/merge-patch+json', 'if-match': etag },
      }),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'a limit out of range',
    send: () => get(`/v1/projects/${A}/items?limit=0`),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'limit',
  },
  {
    name: 'a missing token (read)',
    send: () => http(server.url, 'GET', linePath()),
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'a missing token (write)',
    send: (etag) => patch({ heading: 'Sofa' }, etag, { token: null }),
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'an invalid token',
    send: (etag) => patch({ heading: 'Sofa' }, etag, { token: 'studio_not-a-real-token' }),
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'a malformed Authorization header',
    send: (etag) =>
      http(server.url, 'PATCH', linePath(), {
        body: { heading: 'Sofa' },
        headers: { 'if-match': etag, authorization: `Basic ${server.token}` },
      }),
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'a viewer patching a line (missing scope)',
    send: (etag) => patch({ heading: 'Sofa' }, etag, { token: viewerToken }),
    status: 403,
    code: 'FORBIDDEN',
  },
  {
    name: 'a viewer archiving a line (missing scope)',
    send: (etag) =>
      http(server.url, 'POST', `${linePath()}/archival`, { token: viewerToken, headers: { 'if-match': etag } }),
    status: 403,
    code: 'FORBIDDEN',
  },
  {
    name: 'a viewer reading a project not granted to them',
    send: () => get(`/v1/projects/${B}`, viewerToken),
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'If-Match missing',
    send: () => http(server.url, 'PATCH', linePath(), { token: server.token, body: { heading: 'Sofa' } }),
    status: 428,
    code: 'PRECONDITION_REQUIRED',
  },
  {
    name: 'If-Match stale',
    send: (etag) => patch({ heading: 'Sofa' }, `"${Number(/\d+/.exec(etag)![0]) - 1 || 999}"`),
    status: 409,
    code: 'VERSION_CONFLICT',
  },
  {
    name: 'If-Match unparsable (malformed, not a conflict: nothing changed the line)',
    send: () => patch({ heading: 'Sofa' }, 'yesterday'),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'If-Match weak (If-Match compares strongly)',
    send: () => patch({ heading: 'Sofa' }, 'W/"1"'),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'If-Match: * (every write names its version)',
    send: () => patch({ heading: 'Sofa' }, '*'),
    status: 428,
    code: 'PRECONDITION_REQUIRED',
  },
  {
    name: 'Idempotency-Key missing on a create',
    send: () =>
      http(server.url, 'POST', `/v1/projects/${A}/items`, {
        token: server.token,
        body: { sectionId: sectionA, heading: 'Never created' },
      }),
    status: 400,
    code: 'IDEMPOTENCY_KEY_REQUIRED',
  },
  { name: 'a route that does not exist', send: () => get(`/v1/projects/${A}/rooms`), status: 404, code: 'NOT_FOUND' },
];

describe('a refused request changes nothing', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = await snapshot();
    const res = await c.send(before.etag!);
    expectProblem(res, c.status, c.code);
    if (c.field)
      expect(
        res.body.errors?.map((e: { path: string }) => e.path),
        JSON.stringify(res.body),
      ).toContain(c.field);
    expect(await snapshot()).toEqual(before);
  });

  it('a line cannot be deleted: DELETE is refused (404 or 405) and changes nothing', async () => {
    const before = await snapshot();
    const res = await http(server.url, 'DELETE', linePath(), { token: server.token });
    expect([404, 405]).toContain(res.status);
    expectProblem(res, res.status, res.status === 404 ? 'NOT_FOUND' : 'METHOD_NOT_ALLOWED');
    expect(await snapshot()).toEqual(before);
  });

  it('says in plain words that money travels as a string', async () => {
    const res = await patch({ tradePrice: { state: 'set', amount4: 12.5 } }, await currentEtag());
    expect(res.body.detail).toMatch(/string/i);
  });

  it('reports the current version on a conflict', async () => {
    const etag = await currentEtag();
    const res = await patch({ heading: 'Sofa' }, '"999999"');
    expectProblem(res, 409, 'VERSION_CONFLICT');
    expect(etag.startsWith(`"${res.body.currentVersion}-`)).toBe(true);
  });

  it('answers 401 with a WWW-Authenticate challenge', async () => {
    const res = await http(server.url, 'GET', linePath());
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});

describe('conditional reads', () => {
  it('a member read answers 304 to If-None-Match with its current ETag, and 200 to any other', async () => {
    const first = await get(linePath());
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"\d+-[0-9a-f]{8}-[0-9a-f]{8}"$/);
    const same = await get(linePath(), server.token, { 'if-none-match': etag });
    expect(same.status).toBe(304);
    expect(same.body).toBe('');
    const other = await get(linePath(), server.token, { 'if-none-match': '"999999"' });
    expect(other.status).toBe(200);
    expect(other.body).toEqual(first.body);
  });

  it('a collection never answers 304', async () => {
    const etag = await currentEtag();
    for (const path of [`/v1/projects/${A}/items`, '/v1/projects', `/v1/projects/${A}/audit`]) {
      for (const inm of [etag, '*']) {
        const res = await get(path, server.token, { 'if-none-match': inm });
        expect(res.status, `${path} with If-None-Match ${inm}`).toBe(200);
        expect(Array.isArray(res.body.items)).toBe(true);
      }
    }
  });

  it('a successful write changes the ETag, and the old one no longer answers 304', async () => {
    const etag = await currentEtag();
    const res = await patch({ finish: `Oiled oak ${randomUUID().slice(0, 8)}` }, etag);
    expect(res.status).toBe(200);
    const next = res.headers.get('etag');
    expect(next).not.toBe(etag);
    expect((await get(linePath(), server.token, { 'if-none-match': etag })).status).toBe(200);
    expect((await get(linePath(), server.token, { 'if-none-match': next! })).status).toBe(304);
  });
});

describe('idempotent creates', () => {
  it('the same key with the same body answers the same line, created once; another body with that key is 422', async () => {
    const key = randomUUID();
    const heading = `Brass wall light ${key.slice(0, 8)}`;
    const body = { sectionId: sectionA, heading };
    const send = (b: unknown) =>
      http(server.url, 'POST', `/v1/projects/${A}/items`, {
        token: server.token,
        body: b,
        headers: { 'idempotency-key': key },
      });
    const first = await send(body);
    expect(first.status).toBe(201);
    const again = await send(body);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const matching = async () =>
      (await get(`/v1/projects/${A}/items?limit=1000&q=${encodeURIComponent(heading)}`)).body.items.filter(
        (l: { heading: string }) => l.heading === heading,
      );
    expect((await matching()).map((l: { id: string }) => l.id)).toEqual([first.body.id]);

    const before = await snapshot();
    const reused = await send({ sectionId: sectionA, heading: `${heading} (other)` });
    expectProblem(reused, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await snapshot()).toEqual(before);
    expect(await matching()).toHaveLength(1);
  });

  it("a key is the caller's own: another member using the same key creates their own record", async () => {
    const key = randomUUID();
    const designer = await memberWithToken(server.database, 'designer', [{ projectId: A, level: 'edit' }]);
    const body = { sectionId: sectionA, heading: `Side table ${key.slice(0, 8)}` };
    const mine = await http(server.url, 'POST', `/v1/projects/${A}/items`, {
      token: server.token,
      body,
      headers: { 'idempotency-key': key },
    });
    const theirs = await http(server.url, 'POST', `/v1/projects/${A}/items`, {
      token: designer.token,
      body,
      headers: { 'idempotency-key': key },
    });
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });
});

it('saw only integer numbers in every JSON body it received', () => {
  // clients.ts throws on a float in any body; this proves the check had bodies to look at.
  expect(seenBodies.length).toBeGreaterThan(100);
});
