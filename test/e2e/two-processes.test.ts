/**
 * Two `studio serve` processes on one database behave as one server (issue 10): on PostgreSQL (the `postgres`
 * project) that is how a host scales out behind a proxy; on SQLite, two processes on one file hold to the same rules.
 * Writes race across the processes, the same idempotency key reaches both, an agent-result snapshot read through one
 * is continued through the other, and the audit chain verifies afterwards.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { serveOn, type Served } from '../helpers/raw-http.js';
import { currentEtag, http, trpc } from '../helpers/clients.js';
import { reassemble } from '../mcp/reassemble.js';

let a: RunningServer;
let b: Served;
let projectId: string;
let lines: Array<{ id: string; version: number }>;

beforeAll(async () => {
  a = await startServer();
  b = await serveOn(a.databaseEnv);
  const projects = await http(a.url, 'GET', '/v1/projects', { token: a.token });
  projectId = projects.body.items.find((p: { name: string }) => p.name === 'Harbour House').id;
  lines = (await http(a.url, 'GET', `/v1/projects/${projectId}/items?limit=12`, { token: a.token })).body.items;
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const patch = (base: string, id: string, etag: string, finish: string) =>
  http(base, 'PATCH', `/v1/projects/${projectId}/items/${id}`, {
    token: a.token,
    headers: { 'if-match': etag, 'content-type': 'application/merge-patch+json' },
    body: { finish },
  });

describe('two server processes on one database', () => {
  it('serve the same data', async () => {
    const viaB = await http(b.url, 'GET', `/v1/projects/${projectId}/items/${lines[0]!.id}`, { token: a.token });
    expect(viaB.status).toBe(200);
    expect(viaB.body.id).toBe(lines[0]!.id);
  });

  it('let exactly one of two writes with the same If-Match win, whichever process each reaches', async () => {
    const targets = lines.slice(0, 10);
    const results = await Promise.all(
      targets.map(async (line, i) => {
        const etag = await currentEtag(a.url, a.token, `/v1/projects/${projectId}/items/${line.id}`);
        const [viaA, viaB] = await Promise.all([
          patch(a.url, line.id, etag, `Through A ${i}`),
          patch(b.url, line.id, etag, `Through B ${i}`),
        ]);
        return { line, answers: [viaA, viaB] };
      }),
    );
    for (const r of results) {
      const statuses = r.answers.map((x) => x.status).sort();
      expect(statuses, JSON.stringify(r.answers.map((x) => x.body))).toEqual([200, 409]);
      const winner = r.answers.find((x) => x.status === 200)!.body;
      const loser = r.answers.find((x) => x.status === 409)!.body;
      expect(winner.version).toBe(r.line.version + 1);
      expect(loser).toMatchObject({ code: 'VERSION_CONFLICT', currentVersion: r.line.version + 1 });
      // The stored line is the winner's, read through either process.
      const stored = await http(b.url, 'GET', `/v1/projects/${projectId}/items/${r.line.id}`, { token: a.token });
      expect(stored.body.finish).toBe(winner.finish);
      expect(stored.body.version).toBe(r.line.version + 1);
    }
  });

  it('keep one record for one idempotency key sent to both at once', async () => {
    const section = (await http(a.url, 'GET', `/v1/projects/${projectId}`, { token: a.token })).body.sections[0].id;
    const heading = `Sent twice ${randomUUID()}`;
    const key = randomUUID();
    const create = (base: string) =>
      http(base, 'POST', `/v1/projects/${projectId}/items`, {
        token: a.token,
        headers: { 'idempotency-key': key },
        body: { sectionId: section, heading },
      });
    const answers = await Promise.all([create(a.url), create(b.url)]);
    // Both succeed with the same line (one created it, the other replays it), or the second is told the first is
    // still in flight; never two lines.
    for (const r of answers) expect([201, 409]).toContain(r.status);
    const created = answers.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    const found = await http(
      b.url,
      'GET',
      `/v1/projects/${projectId}/items?q=${encodeURIComponent(heading)}&limit=10`,
      { token: a.token },
    );
    expect(found.body.items).toHaveLength(1);
    // Sent again later to either process, it is a replay of the same line.
    const again = await create(b.url);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(created[0]!.body.id);
  });

  it('continue an agent-result snapshot read through one process through the other', async () => {
    const input = encodeURIComponent(JSON.stringify({ projectId }));
    const path = (selection?: object) =>
      `/api/agent-results?name=list_lines&input=${input}` +
      (selection ? `&selection=${encodeURIComponent(JSON.stringify(selection))}` : '');
    const first = await http(a.url, 'GET', path(), { token: a.token });
    expect(first.status).toBe(200);
    const snapshot = first.body.result_page.snapshot as string;
    let firstPage = true;
    let throughB = 0;
    const whole = await reassemble(async (node, offset) => {
      if (firstPage && !node && offset === 0) {
        firstPage = false;
        return first.body.result_page;
      }
      throughB += 1;
      const res = await http(b.url, 'GET', path({ snapshot, ...(node ? { path: node } : {}), offset }), {
        token: a.token,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result_page;
    });
    expect(throughB).toBeGreaterThan(0);
    const rest = await http(a.url, 'GET', `/v1/projects/${projectId}/items`, { token: a.token });
    expect(JSON.stringify(whole)).toBe(JSON.stringify(rest.body));
  });

  it('leave the audit chain intact, verified through either process', async () => {
    for (const base of [a.url, b.url]) {
      const feed = await trpc(base, a.token).audit.listStudioAuditEvents.query({ verifyChain: true, limit: 1 });
      expect(feed.chain).toMatchObject({ intact: true, brokenAtSeq: null });
      // Every write above is in it: ten edits and one created line, at least.
      expect(feed.chain!.eventsChecked).toBeGreaterThanOrEqual(11);
    }
  });
});
