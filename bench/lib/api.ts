import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

/** One keep-alive connection's worth of plain node:http: lighter than fetch, so the client adds little to a latency. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Request written to last body byte received, in milliseconds. */
  ms: number;
}

export function request(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: Buffer; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const url = new URL(path, base);
  // `raw` is sent as it is (a file upload, its Content-Type in `headers`); `body` as JSON.
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (body !== undefined) {
    headers['content-type'] ??= method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return send(url, method, headers, body, true);
}

/**
 * One request on the keep-alive agent. A socket the agent reuses may have been closed by the server meanwhile (its
 * keep-alive timeout ran out while this process was busy, e.g. in the synchronous in-process search measure): the
 * request then fails with ECONNRESET ("socket hang up") before the server read it, so it is sent once more on a fresh
 * socket, as Node's documentation advises (`request.reusedSocket`). Every bench write carries an Idempotency-Key or an
 * If-Match, so a resend never applies anything twice.
 */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  retry: boolean,
): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolvePromise({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (retry && req.reusedSocket && err.code === 'ECONNRESET')
        send(url, method, headers, body, false).then(resolvePromise, reject);
      else reject(err);
    });
    req.end(body);
  });
}

/** A request that must succeed with one of the expected statuses; returns the parsed JSON body. */
export async function expectJson<T = any>(
  reply: Promise<Reply>,
  statuses: number[],
  what: string,
): Promise<{ body: T; etag?: string }> {
  const r = await reply;
  if (!statuses.includes(r.status))
    throw new Error(`${what}: expected ${statuses.join('/')} but got ${r.status}: ${r.text.slice(0, 500)}`);
  return { body: JSON.parse(r.text) as T, etag: r.headers.etag };
}

export interface Fixture {
  projectId: string;
  sectionId: string;
  lines: Array<{ id: string; etag: string }>;
}

/**
 * A project with `count` lines in one section, made through the public API only (POST /v1/projects, then POST
 * .../items once per line, each with its own Idempotency-Key), a few requests in flight at a time.
 */
export async function createProjectWithLines(
  base: string,
  token: string,
  name: string,
  count: number,
): Promise<Fixture> {
  const { body: project } = await expectJson<{ id: string; sections: Array<{ id: string }> }>(
    request(base, 'POST', '/v1/projects', {
      token,
      body: { name, sections: ['Bench'] },
      headers: { 'idempotency-key': randomUUID() },
    }),
    [201],
    'create project',
  );
  const projectId = project.id;
  const sectionId = project.sections[0]!.id;
  const lines: Fixture['lines'] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const { body, etag } = await expectJson<{ id: string }>(
        request(base, 'POST', `/v1/projects/${projectId}/items`, {
          token,
          body: {
            sectionId,
            heading: `Bench line ${i + 1}`,
            description: 'Oak veneer, satin lacquer, soft-close runners.',
            brand: 'Bench & Co',
          },
          headers: { 'idempotency-key': randomUUID() },
        }),
        [201],
        `create line ${i + 1}`,
      );
      if (!etag) throw new Error('create line: no ETag header on the created line');
      lines[i] = { id: body.id, etag };
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { projectId, sectionId, lines };
}

/**
 * Latency of creating lines one after another at the end of a project's first section (sequential, so each figure
 * is one request's own time): p50 and p95 in ms over `count` creates after `warmup` unmeasured ones.
 */
export async function measureCreateLatency(
  base: string,
  token: string,
  fixture: { projectId: string; sectionId: string },
  count: number,
  warmup = 20,
): Promise<{ p50: number; p95: number; count: number }> {
  const times: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const res = await request(base, 'POST', `/v1/projects/${fixture.projectId}/items`, {
      token,
      body: { sectionId: fixture.sectionId, heading: `Latency line ${i + 1}` },
      headers: { 'idempotency-key': randomUUID() },
    });
    if (res.status !== 201) throw new Error(`create line for latency: ${res.status} ${res.text.slice(0, 200)}`);
    if (i >= warmup) times.push(res.ms);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  return { p50: at(0.5), p95: at(0.95), count };
}
