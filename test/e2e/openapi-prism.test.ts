/**
 * generated/openapi.json says exactly what the real server does, as a third party judges it: every `/v1` operation of
 * the document, its success and each error status it documents, is driven through Stoplight Prism's validation proxy
 * against the real server (`studio serve`), and any violation Prism reports fails the test. The operations are read
 * from the document, so an operation is covered the day it is declared (a status no strategy below can bring about
 * fails the test until one is added).
 *
 * Requests are built from the document alone: each parameter's and body's example, with the placeholder ids of the
 * worked examples replaced by records made for the case. A request the document calls invalid (400, 401, 415, 428)
 * must be reported as a request violation by Prism AND refused by the server: the document and the server agree on
 * what is wrong. Every other request must pass Prism clean, and no answer may ever violate the document.
 *
 * What Prism cannot carry, and what is done instead (nothing is left out silently):
 * - Binary request bodies (a photograph upload): Prism 5 reads every non-JSON body as UTF-8 text and forwards the text,
 *   so the bytes arrive mangled. Those exchanges go straight to the server and are checked by Prism's own validators
 *   (@stoplight/prism-http validateInput/validateOutput, what the proxy runs), all but the bytes themselves.
 * - Binary answers (?variant= bytes): the same, for the same reason.
 * - 405: answered for methods the document does not list at a path, so Prism finds no operation to check it
 *   against ("route not found"); the answer is checked with Prism's validator against the 405 the path's operations
 *   document, and its Allow header against the document's methods.
 * - 500 INTERNAL: documented everywhere, and not something a request can bring about; it is the one status not driven.
 * - decide_estimate (POST /shares/{token}/decision): a decision needs an issued estimate revision, a decide link to it
 *   and a code read from the recipient's mailbox, which this world does not make yet. Its statuses are driven over
 *   plain HTTP by test/share-decisions/ instead; it is listed in NOT_DRIVEN_HERE so the gap is named, not silent.
 */
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { solid } from '../helpers/images.js';
import { httpMcp } from '../helpers/e2e.js';
import { type Exchange, OPENAPI, type Outgoing, type Prism, send, startPrism } from '../helpers/prism.js';

type Schema = Record<string, any>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
  example?: unknown;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { example?: unknown }> };
  responses: Record<string, { description?: string; headers?: Record<string, unknown>; 'x-note'?: string }>;
  security?: unknown[];
}

const doc = JSON.parse(readFileSync(OPENAPI, 'utf8')) as { paths: Record<string, Record<string, Operation>> };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([m]) => METHODS.includes(m))
    .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
);
type Op = (typeof operations)[number];

/** Statuses a request cannot bring about, each with the reason. Nothing else may be left undriven. */
const UNDRIVEN: Record<string, string> = { '500': 'INTERNAL: a failure of the server itself, not of any request' };
/** Operations whose exchanges this file does not drive yet, with where they are tested instead. */
const NOT_DRIVEN_HERE: Record<string, string> = {
  decide_estimate: 'needs a decide link and a mailbox code: test/share-decisions drives it over HTTP',
};

const UPLOAD_LIMIT = 1024 * 1024;
const MAX_BODIES = 2;
const PLACEHOLDER = /^0{20,}[0-9a-z]+$/;
/** A share token, as the worked examples write one (a capability in the path, no placeholder id). */
const SHARE_TOKEN = /^share_[A-Za-z0-9_-]{20,}$/;

let server: RunningServer;
let prism: Prism;
let viewer: string;
let assistant: string;
let mcp: Awaited<ReturnType<typeof httpMcp>> | undefined;
const counts = { requests: 0, viaValidator: 0, statuses: 0, violations: 0, polled: 0 };
const driven = new Map<string, Set<string>>();

beforeAll(async () => {
  server = await startServer({
    STUDIO_UPLOAD_LIMIT: String(UPLOAD_LIMIT),
    STUDIO_MAX_INFLIGHT_BODIES: String(MAX_BODIES),
    // No workers: an operation started for a case stays queued, so its answer always carries Retry-After.
    STUDIO_WORKERS: '0',
  });
  prism = await startPrism(server.url);
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await prism?.stop();
  await server?.stop();
  console.log(
    `Prism: ${operations.length} operations, ${counts.statuses} operation/status pairs driven, ${counts.requests} requests (${counts.viaValidator} checked by Prism's validators off the proxy), ${counts.polled} operations polled at work, ${counts.violations} violations`,
  );
});

// ---------------------------------------------------------------------------------------------------------------
// The records a case needs, made straight on the server (not through Prism): one project per case, so no case sees
// another's changes.

const direct = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await send(server.url, {
    method,
    path,
    headers: {
      authorization: `Bearer ${server.token}`,
      ...(body !== undefined
        ? { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }
        : {}),
      ...headers,
    },
    body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
  });
  if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${res.text}`);
  return res;
};
const key = () => ({ 'idempotency-key': randomUUID() });

class World {
  private ids = new Map<string, string>();
  private made = new Map<string, Promise<string>>();

  /** The real id for a placeholder of the worked examples (…0a a project, …0b a line, …0f a photograph …). */
  async id(placeholder: string): Promise<string> {
    const letter = placeholder.replace(/^0+/, '');
    const make: Record<string, () => Promise<string>> = {
      a: () => this.project(),
      b: async () => this.line(await this.id('0a')),
      c: async () => this.section(await this.id('0a')),
      f: async () => (await this.photographs())[0]!,
      g: async () => (await this.photographs())[1]!,
      s: async () => (await this.share(await this.id('0a'))).id,
      q: async () => this.operation(await this.id('0a')),
      i: async () => this.spreadsheet(await this.id('0a')),
    };
    if (!make[letter])
      throw new Error(`an example names placeholder id ${placeholder}: teach World what it stands for`);
    if (!this.made.has(letter)) this.made.set(letter, make[letter]());
    return this.made.get(letter)!;
  }

  /** Another record of the kind a path parameter names (for the same idempotency key with other input). */
  async another(param: string): Promise<string> {
    const project = await this.id('0a');
    if (param === 'projectId') return this.project();
    if (param === 'itemId' || param === 'lineId') return this.line(project);
    if (param === 'shareId') return (await this.issue(project)).id;
    throw new Error(`no second record for ${param}: teach World.another`);
  }

  private async project() {
    const res = await direct('POST', '/v1/projects', { name: 'Prism case', sections: ['Living Room'] }, key());
    return res.json.id as string;
  }
  private async section(projectId: string) {
    if (!this.ids.has(`section:${projectId}`)) {
      const res = await direct('GET', `/v1/projects/${projectId}`);
      this.ids.set(`section:${projectId}`, res.json.sections[0].id);
    }
    return this.ids.get(`section:${projectId}`)!;
  }
  private async line(projectId: string) {
    const sectionId = await this.section(projectId);
    const res = await direct('POST', `/v1/projects/${projectId}/items`, { sectionId, heading: 'Linen sofa' }, key());
    return res.json.id as string;
  }
  private photos?: Promise<string[]>;
  private photographs() {
    this.photos ??= (async () => {
      const [p, l] = [await this.id('0a'), await this.id('0b')];
      const ids: string[] = [];
      for (const colour of ['#88aa44', '#4488aa']) {
        const res = await send(server.url, {
          method: 'POST',
          path: `/v1/projects/${p}/items/${l}/photographs?filename=sofa.png`,
          headers: { authorization: `Bearer ${server.token}`, 'content-type': 'image/png', ...key() },
          body: await solid('png', 64, 48, colour),
        });
        if (res.status !== 201) throw new Error(`setup upload: ${res.status} ${res.text}`);
        ids.push(res.json.id);
      }
      return ids;
    })();
    return this.photos;
  }
  private shares = new Map<string, Promise<{ id: string; token: string }>>();
  private share(projectId: string) {
    if (!this.shares.has(projectId)) this.shares.set(projectId, this.issue(projectId));
    return this.shares.get(projectId)!;
  }
  private async issue(projectId: string) {
    const res = await direct('POST', '/api/trpc/shares.issueProjectShare', {
      projectId,
      commandKey: randomUUID(),
      confirm: true,
    });
    return res.json.result.data as { id: string; token: string };
  }
  /** The token of the case's share: what a capability operation's path carries. */
  async shareToken(): Promise<string> {
    return (await this.share(await this.id('0a'))).token;
  }
  /** An uploaded spreadsheet, sent to the import upload route as a person's script sends one. */
  private async spreadsheet(projectId: string) {
    const res = await send(server.url, {
      method: 'POST',
      path: `/files/projects/${projectId}/imports?filename=lights.csv`,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'text/csv', ...key() },
      body: Buffer.from('Item,Qty,Unit cost\nPendant,2,120.00\nSconce,4,45.50\n'),
    });
    if (res.status !== 201) throw new Error(`setup import upload: ${res.status} ${res.text}`);
    return res.json.id as string;
  }
  /** An operation, started as an agent starts one: a file tool over MCP (no worker runs it: it stays queued). */
  private async operation(projectId: string) {
    mcp ??= await httpMcp(server.url, server.token);
    const res = await mcp.client.callTool({
      name: 'call_action',
      arguments: { name: 'export_client_schedule', arguments: { projectId, format: 'csv', commandKey: randomUUID() } },
    });
    const op = (res.structuredContent as { result?: { id: string } }).result;
    if (!op) throw new Error(`setup operation: ${JSON.stringify(res.structuredContent)}`);
    return op.id;
  }
}

/** `value` with every placeholder id replaced by the world's record. */
async function resolve(world: World, value: unknown): Promise<unknown> {
  if (typeof value === 'string') {
    if (PLACEHOLDER.test(value)) return world.id(value);
    return SHARE_TOKEN.test(value) ? world.shareToken() : value;
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => resolve(world, v)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await resolve(world, v);
    return out;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// A request for an operation, from the document's examples.

interface Draft {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** A JSON body, or bytes with their media type. */
  body?: { type: string; bytes: Buffer };
}

const isFile = (op: Operation) => Object.keys(op.requestBody?.content ?? {}).some((t) => t.startsWith('image/'));
const jsonType = (op: Operation) => Object.keys(op.requestBody?.content ?? {}).find((t) => /json/.test(t));
const params = (op: Operation, where: Parameter['in']) => (op.parameters ?? []).filter((p) => p.in === where);

async function draft(o: Op, world: World, token = server.token): Promise<Draft> {
  const { op } = o;
  const d: Draft = { path: {}, query: {}, headers: {} };
  if (op.security?.length) d.headers.authorization = `Bearer ${token}`;
  for (const p of params(op, 'path')) d.path[p.name] = String(await resolve(world, p.example));
  for (const p of params(op, 'query')) {
    if (p.example !== undefined && (p.required || p.name === 'filename'))
      d.query[p.name] = String(await resolve(world, p.example));
  }
  const type = jsonType(op);
  if (isFile(op)) d.body = { type: 'image/png', bytes: await solid('png', 40, 30, '#aa4488') };
  else if (type) {
    const example = op.requestBody!.content[type]!.example;
    d.body = { type, bytes: Buffer.from(JSON.stringify(await resolve(world, example))) };
  }
  // Last: the records the body names (photographs) are made by now, and they move the line's version.
  for (const p of params(op, 'header')) {
    if (p.name === 'Idempotency-Key') d.headers['idempotency-key'] = randomUUID();
    if (p.name === 'If-Match') d.headers['if-match'] = await currentEtag(o, d, world);
  }
  return d;
}

/** The ETag If-Match takes: the one the read named by the parameter's x-etag-from answers now. */
async function currentEtag(o: Op, d: Draft, _world: World): Promise<string> {
  const from = (params(o.op, 'header').find((p) => p.name === 'If-Match') as Parameter & { 'x-etag-from'?: string })[
    'x-etag-from'
  ];
  const read = operations.find((x) => x.op.operationId === from);
  if (!read) throw new Error(`${o.op.operationId}: If-Match names no read (x-etag-from) to take its ETag from`);
  const res = await direct('GET', fill(read.path, d.path));
  return String(res.headers.etag);
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, p: string) => {
    if (values[p] === undefined) throw new Error(`no value for {${p}}`);
    return encodeURIComponent(values[p]);
  });

function outgoing(o: Op, d: Draft, method = o.method): Outgoing {
  const qs = new URLSearchParams(d.query).toString();
  return {
    method,
    path: fill(o.path, d.path) + (qs ? `?${qs}` : ''),
    headers: { ...d.headers, ...(d.body ? { 'content-type': d.body.type } : {}) },
    body: d.body?.bytes,
  };
}

/** Through the proxy, or (a binary body or answer) straight to the server with Prism's validators. */
async function exchange(o: Op, req: Outgoing, binary = isFile(o.op) && !!req.body): Promise<Exchange> {
  counts.requests++;
  if (binary) counts.viaValidator++;
  return binary ? prism.validated(o.op.operationId, req) : prism.exchange(req);
}

// ---------------------------------------------------------------------------------------------------------------
// How each documented status is brought about. `invalid`: the document itself calls the request wrong, so Prism
// must say so (and the server refuse it); otherwise Prism must report nothing about the request.

interface Outcome {
  res: Exchange;
  invalid: boolean | 'either';
}
type Strategy = (o: Op, world: World) => Promise<Outcome>;

const success: Strategy = async (o, world) => {
  const res = await exchange(o, outgoing(o, await draft(o, world)));
  // An operation at work says when to look again: with no workers here, every operation a case starts stays queued,
  // so each success that declares Retry-After must carry it (Prism checks its shape against the document).
  const status = Object.keys(o.op.responses).find((s) => s.startsWith('2'))!;
  if (o.op.responses[status]!.headers?.['Retry-After'] && res.status === Number(status)) {
    expect(res.json?.status).toBe('queued');
    expect(String(res.headers['retry-after'])).toMatch(/^\d+$/);
    counts.polled++;
  }
  return { res, invalid: false };
};

const STRATEGIES: Record<string, Strategy> = {
  '304': async (o, world) => {
    const d = await draft(o, world);
    const first = await exchange(o, outgoing(o, d));
    expect(first.status, first.text).toBe(200);
    const etag = String(first.headers.etag);
    // RFC 9110 §13.1.2: a list naming the tag, compared weakly, and `*`, each answer 304.
    const star = await exchange(o, outgoing(o, { ...d, headers: { ...d.headers, 'if-none-match': '*' } }));
    expectClean(o, '304 (If-None-Match: *)', { res: star, invalid: false });
    expect(star.status).toBe(304);
    const res = await exchange(
      o,
      outgoing(o, { ...d, headers: { ...d.headers, 'if-none-match': `"nothing", W/${etag}` } }),
    );
    expect(res.headers.etag).toBe(etag);
    return { res, invalid: false };
  },
  '400': async (o, world) => {
    const d = await draft(o, world);
    const header = (n: string) => params(o.op, 'header').some((p) => p.name === n);
    if (header('Idempotency-Key')) d.headers['idempotency-key'] = 'not-a-uuid';
    else if (header('If-Match')) d.headers['if-match'] = `W/${d.headers['if-match']}`;
    else {
      const limited = params(o.op, 'query').find((p) => p.schema.enum || typeof p.schema.minimum === 'number');
      if (limited) d.query[limited.name] = limited.schema.enum ? 'not-one-of-them' : String(limited.schema.minimum - 1);
      else {
        const last = params(o.op, 'path').at(-1);
        if (last?.schema.maxLength === undefined) return unlistedParameter(o, d);
        d.path[last.name] = 'x'.repeat(Number(last.schema.maxLength) + 1);
      }
    }
    // Refused before a file's bytes are read: the proxy can carry it.
    return { res: await exchange(o, outgoing(o, d), false), invalid: true };
  },
  '401': async (o, world) => {
    const d = await draft(o, world);
    delete d.headers.authorization;
    const res = await exchange(o, outgoing(o, d), false);
    expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer realm="studio"/);
    return { res, invalid: true };
  },
  '403': async (o, world) => {
    if (!o.op.security?.length) {
      // Anonymous: the capability in the path is the authority, and one that does not work is refused.
      const d = await draft(o, world);
      const capability = params(o.op, 'path').at(-1)!;
      d.path[capability.name] = `share_${'x'.repeat(43)}`;
      return { res: await exchange(o, outgoing(o, d)), invalid: false };
    }
    let last: Outcome | undefined;
    // The members who may be refused: a viewer (view grant) and an assistant (edit grant, no pricing).
    for (const token of [viewer, assistant]) {
      const d = await draft(o, world, token);
      await grant(d.path.projectId);
      const res = await exchange(o, outgoing(o, d), false);
      last = { res, invalid: false };
      if (res.status === 403) return last;
    }
    return last!;
  },
  '404': async (o, world) => {
    const d = await draft(o, world);
    const last = params(o.op, 'path').at(-1);
    if (last) d.path[last.name] = '0000000000000000000000zzzz';
    else {
      // No path id: a filter, or a body field, naming a record (an Id) that does not exist.
      const names = (schema: unknown) => JSON.stringify(schema ?? {}).includes('"#/components/schemas/Id"');
      const ref = params(o.op, 'query').find((p) => names(p.schema));
      const type = jsonType(o.op);
      const props = (type && (o.op.requestBody!.content[type] as { schema?: Schema }).schema?.properties) ?? {};
      const field = Object.keys(props).find((k) => names(props[k]));
      if (ref) d.query[ref.name] = '0000000000000000000000zzzz';
      else if (field && d.body) {
        const body = JSON.parse(d.body.bytes.toString());
        body[field] = '0000000000000000000000zzzz';
        d.body = { ...d.body, bytes: Buffer.from(JSON.stringify(body)) };
      } else throw new Error(`${o.op.operationId}: no id to make unknown`);
    }
    return { res: await exchange(o, outgoing(o, d)), invalid: false };
  },
  '409': async (o, world) => {
    const d = await draft(o, world);
    if (d.headers['if-match']) {
      const version = Number(/^"(\d+)/.exec(d.headers['if-match'])![1]);
      d.headers['if-match'] = `"${version + 7}"`;
      const res = await exchange(o, outgoing(o, d));
      if (res.json?.code === 'VERSION_CONFLICT') expect(res.json.currentVersion).toBe(version);
      return { res, invalid: false };
    }
    if (d.headers['idempotency-key']) return inProgress(o, d);
    throw new Error(`${o.op.operationId}: no way to bring about 409`);
  },
  '413': async (o, world) => {
    const d = await draft(o, world);
    const type = isFile(o.op) ? 'image/png' : (jsonType(o.op) ?? 'application/json');
    const size = isFile(o.op) ? UPLOAD_LIMIT + 1024 : 1024 * 1024 + 1024;
    d.body = {
      type,
      bytes: isFile(o.op) ? Buffer.alloc(size, 0x41) : Buffer.from(JSON.stringify({ pad: 'a'.repeat(size) })),
    };
    // The body is only there to be too large: the document may well call its shape wrong too.
    return { res: await exchange(o, outgoing(o, d), false), invalid: 'either' };
  },
  '415': async (o, world) => {
    const d = await draft(o, world);
    if (o.method === 'PATCH') {
      // A merge patch sent as plain JSON is refused too: the document lists one media type.
      const json = await exchange(o, outgoing(o, { ...d, body: { type: 'application/json', bytes: d.body!.bytes } }));
      // Prism 5 takes application/json for a merge patch (it matches the types loosely), so only the server judges.
      expectClean(o, '415 (PATCH as application/json)', { res: json, invalid: 'either' });
      expect(json.status).toBe(415);
    }
    d.body = d.body
      ? { type: 'text/plain', bytes: Buffer.from('hello') }
      : { type: 'application/json', bytes: Buffer.from('{}') };
    // A GET with a body is not something the proxy forwards (its HTTP client refuses): Prism's validators judge it.
    return { res: await exchange(o, outgoing(o, d), o.method === 'GET'), invalid: true };
  },
  '422': async (o, world) => {
    const d = await draft(o, world);
    const first = await exchange(o, outgoing(o, d));
    expectClean(o, '422 (first use of the key)', { res: first, invalid: false });
    // The same key with other input.
    if (d.query.filename) d.query.filename = 'another-name.png';
    else if (d.body && /json/.test(d.body.type)) {
      const body = JSON.parse(d.body.bytes.toString());
      const properties = (o.op.requestBody!.content[d.body.type] as { schema?: Schema }).schema?.properties ?? {};
      const field = Object.keys(body).find(
        (k) => typeof body[k] === 'string' && !PLACEHOLDER.test(body[k]) && !/Id$/.test(k),
      );
      if (field) {
        // A closed set (create_import's phase) takes another of its values; free text takes more text.
        const other = ((properties[field] as Schema | undefined)?.enum ?? []).find((v: unknown) => v !== body[field]);
        body[field] = other ?? `${body[field]} (again)`;
      } else d.path = { ...d.path, ...(await lastPathToAnother(o, world)) };
      d.body = { ...d.body, bytes: Buffer.from(JSON.stringify(body)) };
    } else d.path = { ...d.path, ...(await lastPathToAnother(o, world)) };
    return { res: await exchange(o, outgoing(o, d)), invalid: false };
  },
  '428': async (o, world) => {
    const d = await draft(o, world);
    if (!d.headers['if-match'] && d.body && /json/.test(d.body.type)) {
      // An act the person must agree to, sent without confirm: true: a valid request, answered with the question.
      const { confirm: _c, ...body } = JSON.parse(d.body.bytes.toString());
      const res = await exchange(
        o,
        outgoing(o, { ...d, body: { ...d.body, bytes: Buffer.from(JSON.stringify(body)) } }),
      );
      expect(res.json?.code).toBe('CONFIRMATION_REQUIRED');
      return { res, invalid: false };
    }
    // If-Match: * names no version: refused like a missing one (documented).
    const star = await exchange(o, outgoing(o, { ...d, headers: { ...d.headers, 'if-match': '*' } }));
    expectClean(o, '428 (If-Match: *)', { res: star, invalid: false });
    expect(star.status).toBe(428);
    delete d.headers['if-match'];
    return { res: await exchange(o, outgoing(o, d)), invalid: true };
  },
  '503': async (o, world) => {
    const d = await draft(o, world);
    const held = await holdBodies(MAX_BODIES);
    try {
      const res = await exchange(o, outgoing(o, d), false);
      expect(String(res.headers['retry-after'])).toMatch(/^\d+$/);
      return { res, invalid: false };
    } finally {
      for (const s of held) s.destroy();
      await admissionIs(false);
    }
  },
};

/**
 * 400 where every parameter takes any text (a share token: a malformed one is the capability's one refusal, not a
 * validation error): a query parameter the operation does not list, which the server refuses as the document's 400
 * says. OpenAPI 3.1 cannot forbid unlisted query parameters, so Prism has no rule to report; only the server judges.
 */
async function unlistedParameter(o: Op, d: Draft): Promise<Outcome> {
  const res = await exchange(o, outgoing(o, { ...d, query: { ...d.query, unlisted: 'x' } }), false);
  expect(res.json?.code).toBe('VALIDATION_FAILED');
  expect(o.op.responses['400']!['x-note']).toMatch(/does not list/);
  return { res, invalid: 'either' };
}

async function lastPathToAnother(o: Op, world: World) {
  const last = params(o.op, 'path').at(-1);
  if (!last) throw new Error(`${o.op.operationId}: nothing to vary for the same key with other input`);
  return { [last.name]: await world.another(last.name) };
}

/** The demo project's grants are the fixtures'; a case's own project is granted to the members as it is made. */
async function grant(projectId: string | undefined) {
  if (!projectId) return;
  const db = new Database(server.database);
  try {
    const members = db.prepare("SELECT id, role FROM members WHERE role IN ('viewer', 'assistant')").all() as Array<{
      id: string;
      role: string;
    }>;
    for (const m of members) {
      db.prepare(
        'INSERT INTO project_grants (project_id, member_id, level, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ).run(projectId, m.id, m.role === 'viewer' ? 'view' : 'edit', new Date().toISOString());
    }
  } finally {
    db.close();
  }
}

/**
 * 409 IDEMPOTENCY_IN_PROGRESS: the same request, with the same key, sent several times at once through the proxy.
 * The server commits writes in groups (the next turn of its event loop), so a twin read in the same turn finds the
 * first still in flight. Nothing can be held from outside (SQLite's lock would block the server's whole event loop),
 * so this is a race, tried until it happens; every answer of every try must agree with the document.
 */
async function inProgress(o: Op, d: Draft): Promise<Outcome> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const k = { ...d, headers: { ...d.headers, 'idempotency-key': randomUUID() } };
    const answers = await Promise.all(Array.from({ length: 4 }, () => exchange(o, outgoing(o, k), false)));
    for (const res of answers) expectClean(o, '409 (a twin of the request)', { res, invalid: false });
    // A twin that arrives after the first finished meets its outcome instead (an archival: ALREADY_ARCHIVED), also 409.
    const conflict = answers.find((r) => r.status === 409);
    if (conflict) {
      expect(o.op.responses['409']!.description).toContain(conflict.json.code);
      return { res: conflict, invalid: false };
    }
  }
  throw new Error(`${o.op.operationId}: 40 tries of four twins never met one in flight`);
}

/** Requests whose bodies never finish arriving, holding admission's slots for bodies in flight. */
async function holdBodies(n: number): Promise<Socket[]> {
  const url = new URL(server.url);
  const sockets: Socket[] = [];
  for (let i = 0; i < n; i++) {
    const s = connect(Number(url.port), '127.0.0.1');
    await new Promise((r) => s.once('connect', r));
    s.write(
      `POST /v1/projects HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${server.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nIdempotency-Key: ${randomUUID()}\r\n\r\n{`,
    );
    sockets.push(s);
  }
  await admissionIs(true);
  return sockets;
}

/**
 * Waits until admission is full (or free again), asking it with a body it refuses without effect: a text body to a
 * JSON route, 415 once admitted, 503 while the slots for bodies in flight are taken.
 */
async function admissionIs(full: boolean) {
  for (let i = 0; i < 200; i++) {
    const probe = await send(server.url, {
      method: 'POST',
      path: '/v1/projects',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'text/plain' },
      body: Buffer.from('probe'),
    });
    if ((probe.status === 503) === full) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`admission never became ${full ? 'full' : 'free'}`);
}

function expectClean(o: Op, what: string, { res, invalid }: Outcome) {
  const where = `${o.method} ${o.path} ${what}: ${res.status} ${res.text.slice(0, 300)} violations ${JSON.stringify([
    ...res.requestViolations,
    ...res.responseViolations,
  ])}`;
  counts.violations += res.responseViolations.length + (invalid === false ? res.requestViolations.length : 0);
  expect(res.responseViolations, where).toEqual([]);
  if (invalid === true)
    expect(res.requestViolations.length, `the document should call this request wrong: ${where}`).toBeGreaterThan(0);
  if (invalid === false) expect(res.requestViolations, where).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------------------

describe.each(operations.filter((o) => !(o.op.operationId in NOT_DRIVEN_HERE)))(
  '$method $path ($op.operationId)',
  (o) => {
    const statuses = Object.keys(o.op.responses).filter((s) => !(s in UNDRIVEN));

    beforeAll(async () => {
      viewer ??= (await memberWithToken(server.database, 'viewer')).token;
      assistant ??= (await memberWithToken(server.database, 'assistant')).token;
    });

    it.each(statuses)('answers %s as documented', async (status) => {
      const world = new World();
      const strategy = status.startsWith('2') ? success : status === '405' ? undefined : STRATEGIES[status];
      if (status === '405') return methodNotAllowed(o);
      if (!strategy) throw new Error(`${o.op.operationId} documents ${status}, which this test cannot bring about yet`);
      const outcome = await strategy(o, world);
      expectClean(o, status, outcome);
      expect(outcome.res.status, `${o.method} ${o.path}: ${outcome.res.text.slice(0, 300)}`).toBe(Number(status));
      (driven.get(o.op.operationId) ?? driven.set(o.op.operationId, new Set()).get(o.op.operationId)!).add(status);
      counts.statuses++;
      if (status.startsWith('2')) await binaryAnswers(o, world);
    });

    it('documents every status but the ones no request can cause', () => {
      for (const s of Object.keys(o.op.responses)) if (s in UNDRIVEN) expect(UNDRIVEN[s]).toBeTruthy();
      expect(statuses.length).toBeGreaterThan(0);
    });
  },
);

/** A method the path does not serve: 405 with Allow naming exactly the documented methods (and HEAD with GET). */
async function methodNotAllowed(o: Op) {
  const documented = Object.keys(doc.paths[o.path]!).map((m) => m.toUpperCase());
  const other = ['DELETE', 'PUT', 'PATCH', 'POST', 'GET'].find((m) => !documented.includes(m))!;
  const d = await draft(o, new World());
  const req = { ...outgoing(o, d, other), body: undefined, headers: { authorization: `Bearer ${server.token}` } };
  const viaProxy = await prism.exchange(req);
  counts.requests++;
  expect(viaProxy.requestViolations.map((v) => v.message)).toEqual(['Selected route not found']);
  expect(viaProxy.status).toBe(405);
  const allowed = [...documented, ...(documented.includes('GET') ? ['HEAD'] : [])].sort();
  expect(String(viaProxy.headers.allow).split(', ').sort()).toEqual(allowed);
  // Prism checks the answer against the 405 this operation documents.
  const checked = prism.check(o.op.operationId, { ...req, method: o.method }, viaProxy);
  counts.viaValidator++;
  expect(checked.responseViolations).toEqual([]);
  counts.statuses++;
}

/** ?variant= answers bytes: each checked with Prism's validators (the proxy would mangle them), ETag and type. */
async function binaryAnswers(o: Op, world: World) {
  const variant = params(o.op, 'query').find((p) => p.name === 'variant');
  if (!variant || o.method !== 'GET') return;
  for (const choice of variant.schema.enum as string[]) {
    const d = await draft(o, world);
    d.query.variant = choice;
    const res = await exchange(o, outgoing(o, d), true);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^image\//);
    expect(res.requestViolations).toEqual([]);
    expect(res.responseViolations).toEqual([]);
    const again = await exchange(
      o,
      outgoing(o, { ...d, headers: { ...d.headers, 'if-none-match': String(res.headers.etag) } }),
      true,
    );
    expect(again.status).toBe(304);
    expect(again.responseViolations).toEqual([]);
  }
}

it('covers every operation of the document', () => {
  expect(operations.length).toBeGreaterThanOrEqual(20);
  expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(operations.length);
});

it('sent real bytes where Prism could not: the upload kept them', async () => {
  // The file operations' successes went straight to the server; their records name what was stored.
  const uploads = operations.filter((o) => isFile(o.op));
  expect(uploads.length).toBeGreaterThan(0);
  for (const o of uploads) expect(driven.get(o.op.operationId)?.has('201') ?? false, o.op.operationId).toBe(true);
});
