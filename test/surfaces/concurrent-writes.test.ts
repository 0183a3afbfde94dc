import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { currentEtag, http } from '../helpers/clients.js';
import { verifyAuditChain } from '../../src/core/audit.js';

let app: TestApp;
let lines: Array<{ id: string; version: number }>;
openTestApp((opened) => ({ app } = opened));
beforeAll(async () => {
  lines = (await http(app.url, 'GET', `/v1/projects/${app.projectId}/items`, { token: app.token })).body.items;
});

const etagOf = (id: string) => currentEtag(app.url, app.token, `/v1/projects/${app.projectId}/items/${id}`);
const patch = (id: string, ifMatch: string, finish: string) =>
  http(app.url, 'PATCH', `/v1/projects/${app.projectId}/items/${id}`, {
    token: app.token,
    headers: { 'if-match': ifMatch },
    body: { finish },
  });

describe('concurrent writes (grouped into shared commits)', () => {
  it('two writes with the same If-Match on one line: exactly one wins, the other gets VERSION_CONFLICT', async () => {
    const line = lines[0]!;
    const etag = await etagOf(line.id);
    const results = await Promise.all([patch(line.id, etag, 'Walnut'), patch(line.id, etag, 'Ash')]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('VERSION_CONFLICT');
    const after = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${line.id}`, { token: app.token });
    expect(after.body.version).toBe(line.version + 1);
    expect(after.body.finish).toBe(results.find((r) => r.status === 200)!.body.finish);
  });

  it('a failing write among many rolls back alone; the others land, each audited once, and the chain holds', async () => {
    const targets = lines.slice(1, 21);
    const before = (await http(app.url, 'GET', `/v1/projects/${app.projectId}/audit?limit=1000`, { token: app.token }))
      .body.items.length;
    const etags = await Promise.all(targets.map((l) => etagOf(l.id)));
    const results = await Promise.all([
      ...targets.map((l, i) => patch(l.id, etags[i]!, `Finish ${i}`)),
      patch(targets[0]!.id, '"999"', 'Stale'),
      http(app.url, 'PATCH', `/v1/projects/${app.projectId}/items/${targets[1]!.id}`, {
        token: app.token,
        headers: { 'if-match': etags[1]! },
        body: { heading: '' },
      }),
    ]);
    expect(results.slice(0, targets.length).every((r) => r.status === 200)).toBe(true);
    expect(results.at(-2)!.body.code).toBe('VERSION_CONFLICT');
    expect(results.at(-1)!.body.code).toBe('VALIDATION_FAILED');
    for (const [i, l] of targets.entries()) {
      const now = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${l.id}`, { token: app.token });
      expect(now.body).toMatchObject({ finish: `Finish ${i}`, version: l.version + 1 });
    }
    const after = (await http(app.url, 'GET', `/v1/projects/${app.projectId}/audit?limit=1000`, { token: app.token }))
      .body.items.length;
    expect(after - before).toBe(targets.length);
    const studio = await app.rt.store.readDb.selectFrom('studios').select('id').executeTakeFirstOrThrow();
    expect(await verifyAuditChain(app.rt.store.readDb, studio.id)).toMatchObject({ intact: true, brokenAtSeq: null });
  });
});

describe('idempotency keys under concurrency', () => {
  it('a twin arriving while the first request with its key is still running gets IDEMPOTENCY_IN_PROGRESS; one line is made', async () => {
    const { invoke } = await import('../../src/core/invoke.js');
    const { ACTIONS_BY_NAME } = await import('../../actions/index.js');
    const createLine = ACTIONS_BY_NAME.get('create_line')!;
    const sectionId = (await http(app.url, 'GET', `/v1/projects/${app.projectId}`, { token: app.token })).body
      .sections[0].id;
    const input = { projectId: app.projectId, sectionId, heading: 'Twin lamp', idempotencyKey: crypto.randomUUID() };
    // Both start in the same tick: whichever is authenticated first is queued for the next commit group, so the other
    // finds it in flight (on PostgreSQL the two token look-ups may come back in either order).
    const settled = await Promise.allSettled([
      invoke(app.rt, createLine, input, { token: app.token }),
      invoke(app.rt, createLine, input, { token: app.token }),
    ]);
    const first = settled.find((s) => s.status === 'fulfilled');
    expect(first).toBeDefined();
    expect(settled.find((s) => s !== first)).toMatchObject({
      status: 'rejected',
      reason: { code: 'IDEMPOTENCY_IN_PROGRESS' },
    });
    // Once the first has finished, the same key and input replay its response.
    const replay = (await invoke(app.rt, createLine, input, { token: app.token })) as { id: string };
    expect(replay.id).toBe((first as PromiseFulfilledResult<{ id: string }>).value.id);
    const twins = (
      await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?q=Twin%20lamp`, { token: app.token })
    ).body.items;
    expect(twins).toHaveLength(1);
  });
});

describe('concurrent reads', () => {
  it('many more reads at once than the store has reader connections all answer (no read waits on a second one)', async () => {
    // 40 at once: past the PostgreSQL store's 8 pooled readers, where a read that held one connection for its snapshot
    // and asked for another for a raw lookup would wait forever.
    const reads = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${lines[i % lines.length]!.id}`, {
          token: app.token,
        }),
      ),
    );
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
    const lists = await Promise.all(
      Array.from({ length: 20 }, () =>
        http(app.url, 'GET', `/v1/projects/${app.projectId}/items`, { token: app.token }),
      ),
    );
    expect(new Set(lists.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });
});
