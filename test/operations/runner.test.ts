/**
 * The operation runner with real workers on a real store (both dialects): an act accepted as an operation runs in the
 * background, reports progress, ends succeeded with its result, failed with a stable code or canceled with nothing
 * applied; an operation whose worker died is taken up again (or failed after too many tries), a worker whose claim
 * was taken over commits nothing, and several workers sharing one database run every operation exactly once.
 * get_operation (REST, with Retry-After), get_operation_status, list_operations and cancel_operation (tRPC, MCP) read
 * and steer them; a progress token over MCP hears notifications/progress and gets the finished operation.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ACTIONS } from '../../actions/index.js';
import { Operation } from '../../actions/operations/records.js';
import { openDatabase } from '../../db/open.js';
import { defineAction } from '../../src/core/define-action.js';
import { ServiceError } from '../../src/core/errors.js';
import { invoke } from '../../src/core/invoke.js';
import { defineJob } from '../../src/jobs/job.js';
import { startOperation, type PresentedOperation } from '../../src/jobs/operations.js';
import { OPERATION_RECORD } from '../../src/jobs/record.js';
import { OperationRunner } from '../../src/jobs/runner.js';
import { createMcpServer } from '../../src/surfaces/mcp/server.js';
import { codeOf, settledOperation } from '../helpers/calls.js';
import { trpc, type Trpc } from '../helpers/clients.js';
import { demoMembers, fromOutside, type Member } from '../helpers/fixtures.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { storeOptionsFor } from '../helpers/test-database.js';

/** Gates a test opens to let a waiting job go on. */
const gates = new Map<string, () => void>();
const gate = (name: string) => new Promise<void>((go) => gates.set(name, go));
/** Opens a gate once the job waiting at it has got there. */
async function open(name: string) {
  while (!gates.has(name)) await new Promise((r) => setTimeout(r, 10));
  gates.get(name)!();
}

interface CountInput {
  units: number;
  tag: string;
  fail?: boolean;
  waitFor?: string;
}

/** Counts units with progress, then records one audit event tagged with the operation: its effect, applied once. */
const COUNT = defineJob<CountInput, { counted: number }>({
  kind: 'test_count',
  async run(job) {
    if (job.input.waitFor) await gate(job.input.waitFor);
    for (let i = 1; i <= job.input.units; i++) await job.progress(i, job.input.units);
    if (job.input.fail)
      throw new ServiceError('VALIDATION_FAILED', 'Row 3 has no heading; give it one and import again.');
    return job.commit(async (ctx) => {
      ctx.audit({
        targetKind: 'studio',
        targetId: ctx.studioId,
        summary: `counted ${job.input.tag} ${job.operationId}`,
      });
      return { counted: job.input.units };
    });
  },
});

const startCount = defineAction({
  name: 'start_test_count',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'operations',
  summary: 'Test only: count in the background.',
  description: 'Test only.',
  scope: 'projects:write',
  startsOperation: true,
  input: z.strictObject({
    units: z.int().min(0).max(1000),
    tag: z.string(),
    fail: z.boolean().optional(),
    waitFor: z.string().optional(),
  }),
  output: Operation,
  errors: [],
  example: { units: 3, tag: 'x' },
  handler: (ctx, input) =>
    startOperation(ctx, {
      kind: COUNT.kind,
      action: 'start_test_count',
      scope: 'projects:write',
      input,
      total: input.units,
    }),
});

let app: TestApp;
let owner: Trpc;
let viewer: Member;

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  ({ viewer } = await demoMembers(app, ['viewer']));
});

const start = async (input: CountInput) =>
  (await invoke(app.rt, startCount, input, { token: app.token })) as PresentedOperation;
const status = (id: string) => owner.operations.getOperationStatus.query({ operationId: id });
const settled = (id: string) => settledOperation(owner, id);
const effects = (tag: string) =>
  fromOutside(app.database, async (db) =>
    (await db.selectFrom('audit_events').select('summary').where('summary', 'like', `counted ${tag} %`).execute()).map(
      (r) => r.summary,
    ),
  );

describe('an operation runs in the background', () => {
  it('is accepted queued, reports progress, and ends succeeded with its result and its effect applied once', async () => {
    const op = await start({ units: 5, tag: 'one' });
    expect(op).toMatchObject({ status: 'queued', kind: 'test_count', progress: { completed: 0, total: 5 } });
    const done = await settled(op.id);
    expect(done).toMatchObject({ status: 'succeeded', result: { counted: 5 }, progress: { completed: 5, total: 5 } });
    expect(done.finishedAt).not.toBeNull();
    expect(await effects('one')).toEqual([`counted one ${op.id}`]);
  });

  it('a failure ends it failed with the problem and its stable code; nothing is applied', async () => {
    const op = await start({ units: 2, tag: 'bad', fail: true });
    const done = await settled(op.id);
    expect(done.status).toBe('failed');
    const kept = await fromOutside(app.database, (db) =>
      db.selectFrom('operations').select(['result', 'problem']).where('id', '=', op.id).executeTakeFirstOrThrow(),
    );
    expect(kept.result).toBeNull();
    expect(JSON.parse(kept.problem!)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(done.problem).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
      detail: expect.stringContaining('Row 3'),
    });
    expect(done.result).toBeUndefined();
    expect(await effects('bad')).toEqual([]);
  });

  it('cancel: a queued operation never starts; a running one stops at its next step with nothing applied', async () => {
    const blocker = await start({ units: 1, tag: 'blocker', waitFor: 'blocker' });
    const queued = await start({ units: 1, tag: 'queued' });
    await new Promise((r) => setTimeout(r, 200));
    expect((await status(queued.id)).status).toBe('queued');
    expect((await owner.operations.cancelOperation.mutate({ operationId: queued.id })).status).toBe('canceled');
    // The blocker is running, waiting at its gate: the cancel takes effect at its next progress report.
    while (!gates.has('blocker')) await new Promise((r) => setTimeout(r, 10));
    expect((await status(blocker.id)).status).toBe('running');
    const asked = await owner.operations.cancelOperation.mutate({ operationId: blocker.id });
    expect(asked).toMatchObject({ status: 'running', cancelRequested: true });
    await open('blocker');
    expect((await settled(blocker.id)).status).toBe('canceled');
    expect(await effects('blocker')).toEqual([]);
    expect(await effects('queued')).toEqual([]);
    expect(await codeOf(owner.operations.cancelOperation.mutate({ operationId: queued.id }))).toBe('VALIDATION_FAILED');
  });

  it('REST get_operation answers Retry-After while it works; reads need the act’s permission', async () => {
    const waiting = await start({ units: 1, tag: 'rest', waitFor: 'rest' });
    while (!gates.has('rest')) await new Promise((r) => setTimeout(r, 10));
    const headers = { authorization: `Bearer ${app.token}` };
    const running = await fetch(`${app.url}/v1/operations/${waiting.id}`, { headers });
    expect(running.status).toBe(200);
    expect(running.headers.get('retry-after')).toBe('1');
    await open('rest');
    await settled(waiting.id);
    const done = await fetch(`${app.url}/v1/operations/${waiting.id}`, { headers });
    expect(done.headers.get('retry-after')).toBeNull();
    expect(await done.json()).toMatchObject({ status: 'succeeded', result: { counted: 1 } });
    // A viewer cannot do the act (projects:write), so cannot see it either.
    const asViewer = trpc(app.url, viewer.token);
    expect(await codeOf(asViewer.operations.getOperationStatus.query({ operationId: waiting.id }))).toBe('NOT_FOUND');
    expect((await asViewer.operations.listOperations.query({})).items.map((o) => o.id)).not.toContain(waiting.id);
    const listed = await owner.operations.listOperations.query({ status: 'succeeded' });
    expect(listed.items.map((o) => o.id)).toContain(waiting.id);
    expect(listed.items.every((o) => o.status === 'succeeded')).toBe(true);
  });
});

describe('crashes and several workers', () => {
  /** A running operation whose worker died: claimed by a process that is gone, its lease run out long ago. */
  async function orphan(tag: string, attempts: number) {
    const id = `orphan${tag}`.padEnd(26, '0');
    const members = await fromOutside(app.database, (db) =>
      db.selectFrom('members').select(['id', 'studio_id']).where('role', '=', 'owner').execute(),
    );
    const now = new Date().toISOString();
    await fromOutside(app.database, (db) =>
      db
        .insertInto('operations')
        .values(
          OPERATION_RECORD.newRow(
            {
              kind: 'test_count',
              action: 'start_test_count',
              scope: 'projects:write',
              status: 'running',
              progress: { completed: 0, total: 1 },
              input: JSON.stringify({ units: 1, tag }),
              requestedBy: members[0]!.id,
              requestedVia: 'api_token',
              attempts,
              claimedBy: 'w-dead',
              leaseUntil: '2000-01-01T00:00:00.000Z',
              startedAt: now,
              updatedAt: now,
            },
            { id, ownerId: members[0]!.studio_id, now },
          ),
        )
        .execute(),
    );
    return { id };
  }

  it('an operation whose worker died is taken up again; after too many tries it fails OPERATION_INTERRUPTED', async () => {
    const store = await openDatabase(storeOptionsFor(app.database));
    const other = new OperationRunner({ store, files: app.rt.files, config: app.rt.config }, { idleMs: 50 });
    try {
      const again = await orphan('again', 1);
      const tired = await orphan('tired', 3);
      other.start();
      expect(await settled(again.id)).toMatchObject({ status: 'succeeded' });
      const failed = await settled(tired.id);
      expect(failed.status).toBe('failed');
      expect(failed.problem?.code).toBe('OPERATION_INTERRUPTED');
      expect(await effects('again')).toEqual([`counted again ${again.id}`]);
      expect(await effects('tired')).toEqual([]);
    } finally {
      await other.stop();
      await store.close();
    }
  });

  it('several workers over one database run each of 24 operations exactly once', async () => {
    const stores = await Promise.all([1, 2].map(() => openDatabase(storeOptionsFor(app.database))));
    const runners = stores.map((store) =>
      new OperationRunner(
        { store, files: app.rt.files, config: app.rt.config },
        { idleMs: 20, concurrency: 2 },
      ).start(),
    );
    try {
      const ops = await Promise.all(Array.from({ length: 24 }, (_, i) => start({ units: 2, tag: `many${i}x` })));
      for (const op of ops) expect((await settled(op.id)).status).toBe('succeeded');
      for (const [i, op] of ops.entries()) expect(await effects(`many${i}x`)).toEqual([`counted many${i}x ${op.id}`]);
    } finally {
      for (const r of runners) await r.stop();
      for (const s of stores) await s.close();
    }
  });
});

describe('over MCP', () => {
  it('with a progress token: notifications/progress, then the finished operation; without: where to poll', async () => {
    const server = createMcpServer(app.rt, [...ACTIONS, startCount], { token: app.token });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '1.0.0' });
    await server.connect(a);
    await client.connect(b);
    try {
      const heard: Array<{ progress: number; total?: number }> = [];
      const res = await client.callTool(
        {
          name: 'call_action',
          arguments: { name: 'start_test_count', arguments: { input: { units: 4, tag: 'mcp' } } },
        },
        undefined,
        { onprogress: (p) => heard.push(p) },
      );
      const op = (res.structuredContent as { result: PresentedOperation }).result;
      expect(op).toMatchObject({ status: 'succeeded', result: { counted: 4 } });
      expect(heard.length).toBeGreaterThan(0);
      expect(heard.every((p) => p.progress <= 4)).toBe(true);

      const later = await client.callTool({
        name: 'call_action',
        arguments: { name: 'start_test_count', arguments: { input: { units: 1, tag: 'poll', waitFor: 'poll' } } },
      });
      const queued = (later.structuredContent as { result: PresentedOperation }).result;
      expect(['queued', 'running']).toContain(queued.status);
      const texts = (later.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      // The hint is the call itself, sent as written.
      const hint = /send this call [^:]*: (\{.*\})$/m.exec(texts);
      expect(hint, texts).not.toBeNull();
      const poll = JSON.parse(hint![1]!) as { tool: string; arguments: Record<string, unknown> };
      const polled = await client.callTool({ name: poll.tool, arguments: poll.arguments });
      expect(polled.isError).toBeFalsy();
      expect((polled.structuredContent as { result: PresentedOperation }).result.id).toBe(queued.id);
      await open('poll');
      expect((await settled(queued.id)).status).toBe('succeeded');
    } finally {
      await client.close();
    }
  });
});
