/**
 * A share token is an oracle for nothing: unknown, revoked, expired and malformed tokens get the same refusal (status,
 * headers that matter, body) and cost the same work, so neither the answer nor its timing tells an attacker whether a
 * guessed token exists, once existed, or had the right shape. A live token is the control. The same work is proved
 * from its structure (one statement, the same for every token, which the store runs with the same index probes as
 * many times each) and measured (interleaved timings, each relative to its own round).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import type { Trpc } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { resolveShareToken, SHARE_REFUSED } from '../../src/domain/shares/resolve.js';
import { ServiceError } from '../../src/core/errors.js';
import { shareTokenDigest } from '../../src/domain/shares/token.js';
import type { RowReader } from '../../db/store.js';
import { CompiledQuery } from 'kysely';

let app: TestApp;
let owner: Trpc;
const cases: Record<'live' | 'unknown' | 'revoked' | 'expired' | 'malformed', string> = {
  live: '',
  unknown: `share_${randomBytes(32).toString('base64url')}`,
  revoked: '',
  expired: '',
  malformed: 'not-a-share-token',
};

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  const issue = async () =>
    (
      await owner.shares.issueProjectShare.mutate({
        projectId: app.projectId,
        expiresInDays: 30,
        commandKey: crypto.randomUUID(),
        confirm: true,
      })
    ).token!;
  cases.live = await issue();
  cases.revoked = await issue();
  cases.expired = await issue();
  const shares = await owner.shares.listProjectShares.query({ projectId: app.projectId });
  const idOf = (token: string) => shares.items.find((s) => s.tokenHint === token.slice(-4))!.id;
  await owner.shares.revokeProjectShare.mutate({
    projectId: app.projectId,
    shareId: idOf(cases.revoked),
    commandKey: crypto.randomUUID(),
  });
  // Time passing, simulated: its 30 days are over.
  await fromOutside(app.database, (db) =>
    db
      .updateTable('shares')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', idOf(cases.expired))
      .execute(),
  );
});

const page = async (token: string) => {
  const res = await fetch(`${app.url}/s/${token}`);
  return { status: res.status, body: await res.text(), headers: res.headers };
};
const REFUSALS = ['unknown', 'revoked', 'expired', 'malformed'] as const;
/** Headers an attacker could read a difference in; date and connection details aside. */
const HEADERS = ['content-type', 'content-length', 'content-security-policy', 'cache-control', 'referrer-policy'];

describe('one refusal for every token that does not work', () => {
  it('the page answers unknown, revoked, expired and malformed tokens alike: 403, same headers, same body', async () => {
    const live = await page(cases.live);
    expect(live.status).toBe(200);
    const answers = await Promise.all(REFUSALS.map((c) => page(cases[c])));
    const seen = answers.map((a) => ({
      status: a.status,
      body: a.body,
      headers: Object.fromEntries(HEADERS.map((h) => [h, a.headers.get(h)])),
    }));
    expect(seen[0]!.status).toBe(403);
    expect(seen[0]!.body).toContain('This link is no longer available');
    for (const s of seen) expect(s).toEqual(seen[0]);
    // More malformed shapes: empty, slashes, over-long, bad percent-encoding, a live token with something appended.
    for (const odd of ['', 'a/b/c', 'x'.repeat(2000), '%zz', `${cases.live}x`, `${cases.live}/more`]) {
      const a = await page(odd);
      expect({ status: a.status, body: a.body }, JSON.stringify(odd.slice(0, 40))).toEqual({
        status: 403,
        body: seen[0]!.body,
      });
    }
  });

  it('resolveShareToken throws the same FORBIDDEN with the same sentence for all four', async () => {
    const refusals = await Promise.all(
      REFUSALS.map((c) =>
        resolveShareToken(app.rt.store.readRow, cases[c]).then(
          () => null,
          (e: unknown) => e,
        ),
      ),
    );
    for (const e of refusals) {
      expect(e).toBeInstanceOf(ServiceError);
      expect({ code: (e as ServiceError).code, detail: (e as ServiceError).detail }).toEqual({
        code: 'FORBIDDEN',
        detail: SHARE_REFUSED,
      });
    }
    const live = await resolveShareToken(app.rt.store.readRow, cases.live);
    expect(live).toMatchObject({ projectId: app.projectId, document: { kind: 'client_document', id: app.projectId } });
  });
});

/** The median of a list of numbers. */
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The cases in a fresh uniformly random order (Fisher–Yates; sorting by a random comparator is biased). */
function shuffled<T>(xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Times `run` on every case, the four interleaved in a fresh random order each round, after a warm-up. Each duration
 * is taken relative to its own round's median, so load from elsewhere on the machine, which changes what a whole
 * round costs, cancels out of the comparison instead of landing on whichever case it happened to hit, and one stall
 * in a round (a collection, another process) moves only its own case's ratio, once: a case that does less work is
 * below 1 in nearly every round, whatever the load. Returns each case's median relative duration, and the typical
 * round's cost in microseconds (for the floor under which durations are too small to compare).
 */
async function relativeMedians(rounds: number, run: (token: string) => Promise<unknown>) {
  const relative = Object.fromEntries(REFUSALS.map((c) => [c, [] as number[]])) as Record<string, number[]>;
  const typicals: number[] = [];
  for (let round = -20; round < rounds; round++) {
    const took: Record<string, number> = {};
    for (const c of shuffled(REFUSALS)) {
      const start = process.hrtime.bigint();
      await run(cases[c]).catch(() => undefined);
      took[c] = Number(process.hrtime.bigint() - start) / 1000;
    }
    if (round < 0) continue;
    const typical = median(Object.values(took));
    typicals.push(typical);
    for (const c of REFUSALS) relative[c]!.push(took[c]! / typical);
  }
  return {
    medians: Object.fromEntries(REFUSALS.map((c) => [c, median(relative[c]!)])) as Record<string, number>,
    typicalUs: median(typicals),
  };
}

/**
 * Whether every case's median relative duration lies within `ratio` of every other's (or the spread is within
 * `floorUs` at the round's typical cost, for durations too small to compare by ratio).
 */
function alike(m: { medians: Record<string, number>; typicalUs: number }, ratio: number, floorUs: number) {
  const values = Object.values(m.medians);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return hi <= lo * ratio || (hi - lo) * m.typicalUs <= floorUs;
}

/**
 * Measures up to three times and passes on the first measurement that finds the cases alike. A real difference in
 * work (a path that skips the lookup or the hashing, or a lookup that answers an unknown digest with less work, as an
 * earlier version of the query did: 25% slower when a share existed) shows in every measurement and fails; load from
 * elsewhere on a shared 2-core machine falls on a whole round and is divided out (see relativeMedians), and a burst
 * that still skews one measurement does not last three.
 */
async function expectAlike(
  measure: () => Promise<{ medians: Record<string, number>; typicalUs: number }>,
  ratio: number,
  floorUs: number,
) {
  const seen: Array<{ medians: Record<string, number>; typicalUs: number }> = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const m = await measure();
    if (alike(m, ratio, floorUs)) return;
    seen.push(m);
  }
  expect.fail(`relative medians differ in every measurement: ${JSON.stringify(seen)}`);
}

/** The statements resolveShareToken sends for a token, as sent: text and each parameter's type and length. */
async function statementsFor(token: string) {
  const sent: Array<{ sql: string; params: string[] }> = [];
  const recording: RowReader = async (sqlText, ...params) => {
    sent.push({ sql: sqlText, params: params.map((p) => `${typeof p}:${String(p).length}`) });
    return app.rt.store.readRow(sqlText, ...params);
  };
  await resolveShareToken(recording, token).catch(() => undefined);
  return { sent };
}

/**
 * How the store runs a statement: on PostgreSQL the executed plan (each node, the index it probes and how many times
 * it ran, rows found left out: they are what differs and is never sent back); on SQLite the query plan (each table
 * reached, and how).
 */
async function executedPlan(sqlText: string, param: unknown): Promise<string[]> {
  const store = app.rt.store;
  if (store.dialect === 'postgres') {
    const res = await store.readDb.executeQuery<{ 'QUERY PLAN': unknown }>(
      CompiledQuery.raw(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ${sqlText.replace('?', '$1')}`,
        [param],
      ),
    );
    const nodes: string[] = [];
    const walk = (n: Record<string, any>) => {
      nodes.push(`${n['Node Type']} ${n['Relation Name'] ?? ''} ${n['Index Name'] ?? ''} loops=${n['Actual Loops']}`);
      for (const child of n.Plans ?? []) walk(child);
    };
    walk((res.rows[0]!['QUERY PLAN'] as Array<{ Plan: Record<string, any> }>)[0]!.Plan);
    return nodes;
  }
  const res = await store.readDb.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${sqlText}`, [param]),
  );
  return res.rows.map((r) => r.detail);
}

describe('the same work for every refusal', () => {
  it('resolveShareToken sends one statement, the same text and parameter shape for every token, live or not', async () => {
    const sent = await Promise.all(['live', ...REFUSALS].map((c) => statementsFor(cases[c as keyof typeof cases])));
    for (const s of sent) expect(s.sent).toEqual(sent[0]!.sent);
    expect(sent[0]!.sent).toHaveLength(1);
    // The token is hashed whatever it is: the parameter is a digest's length, never the text sent.
    expect(sent[0]!.sent[0]!.params).toEqual([`string:${shareTokenDigest('').length}`]);
  });

  it('the store runs that statement the same way for every token: the same probes, as many times each', async () => {
    const sqlText = (await statementsFor(cases.live)).sent[0]!.sql;
    const plans = await Promise.all(
      ['live', ...REFUSALS].map((c) => executedPlan(sqlText, shareTokenDigest(cases[c as keyof typeof cases]))),
    );
    for (const plan of plans) expect(plan).toEqual(plans[0]);
    // Three index probes in every plan, one per table: a missing share still probes its project and revocation.
    const probes = plans[0]!.filter((step) => /^(SEARCH|Index (Only )?Scan)\b/.test(step));
    expect(probes).toHaveLength(3);
    for (const [i, index] of ['shares_by_token_hash', 'projects', 'share_revocations_by_share'].entries())
      expect(probes[i], index).toContain(index);
    // Each probe runs once for the one row the statement starts from, found or not: on PostgreSQL its executed loop
    // count says so; SQLite's plan does not count, so each must be a LEFT JOIN from the constant row (an inner join,
    // or a WHERE on the share, as the earlier query had, skips the later probes when no share matches).
    for (const probe of probes) expect(probe).toMatch(/loops=1$|LEFT-JOIN$/);
  });

  it('resolveShareToken takes alike time for unknown, revoked, expired and malformed tokens', async () => {
    await expectAlike(() => relativeMedians(600, (token) => resolveShareToken(app.rt.store.readRow, token)), 1.15, 3);
  });

  it('the page takes alike time for all four over HTTP', async () => {
    await expectAlike(
      () => relativeMedians(160, async (token) => (await fetch(`${app.url}/s/${token}`)).text()),
      1.3,
      150,
    );
  });
});
