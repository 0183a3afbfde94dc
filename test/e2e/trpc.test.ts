/**
 * The procedure API through the typed tRPC client, against the real server process: reads, a versioned write, a keyed
 * create, and failures that arrive as TRPCClientError carrying the stable `serviceCode`.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, openServer } from '../helpers/server.js';
import { batchingTrpc, http, seenBodies, trpc, type Trpc } from '../helpers/clients.js';
import { trpcFailure } from '../helpers/calls.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { expectNoInternals, expectSentence } from '../helpers/e2e.js';

let server: RunningServer;
let api: Trpc;
let projectId: string;
let sectionId: string;
let lineId: string;

/** The rejection of a call, checked as the contract promises it: a sentence, no internals, a request id. */
async function failure(call: Promise<unknown>) {
  const e = await trpcFailure(call);
  expectSentence(e.message);
  expectNoInternals(e.shape);
  expect(e.data?.requestId).toBeTypeOf('string');
  return e;
}

openServer((started) => (server = started));
beforeAll(async () => {
  api = trpc(server.url, server.token);
  const projects = await api.projects.listStudioProjects.query({});
  projectId = projects.items.find((p) => p.name === 'Harbour House')!.id;
  const lines = await api.schedule.listScheduleLines.query({ projectId, limit: 3 });
  lineId = lines.items[0]!.id;
  sectionId = lines.items[0]!.sectionId;
});

describe('typed tRPC client', () => {
  it('queries: lists and reads the same line REST serves', async () => {
    const line = await api.schedule.getScheduleLine.query({ projectId, lineId });
    expect(line.id).toBe(lineId);
    expect(line.version).toBeTypeOf('number');
    const rest = await http(server.url, 'GET', `/v1/projects/${projectId}/items/${lineId}`, { token: server.token });
    expect(rest.body).toEqual(line);
  });

  it('mutation: update_schedule_line with expectedVersion applies the patch and bumps the version', async () => {
    const before = await api.schedule.getScheduleLine.query({ projectId, lineId });
    const finish = `Smoked oak ${randomUUID().slice(0, 6)}`;
    const after = await api.schedule.updateScheduleLine.mutate({
      projectId,
      lineId,
      expectedVersion: before.version,
      patch: { finish },
    });
    expect(after.finish).toBe(finish);
    expect(after.version).toBe(before.version + 1);
    expect(await api.schedule.getScheduleLine.query({ projectId, lineId })).toEqual(after);
  });

  it('keyed create: the same commandKey and input answer the same line, created once', async () => {
    const commandKey = randomUUID();
    const heading = `Rattan armchair ${commandKey.slice(0, 8)}`;
    const first = await api.schedule.createScheduleLine.mutate({ projectId, sectionId, heading, commandKey });
    const again = await api.schedule.createScheduleLine.mutate({ projectId, sectionId, heading, commandKey });
    expect(again).toEqual(first);
    const found = await api.schedule.listScheduleLines.query({ projectId, q: heading });
    expect(found.items.filter((l) => l.heading === heading).map((l) => l.id)).toEqual([first.id]);
    const reused = await failure(
      api.schedule.createScheduleLine.mutate({ projectId, sectionId, heading: `${heading}!`, commandKey }),
    );
    expect(reused.data?.serviceCode).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('errors carry data.serviceCode', () => {
  it('VERSION_CONFLICT for a stale expectedVersion, and the line is unchanged', async () => {
    const before = await api.schedule.getScheduleLine.query({ projectId, lineId });
    const err = await failure(
      api.schedule.updateScheduleLine.mutate({
        projectId,
        lineId,
        expectedVersion: before.version - 1 || 999,
        patch: { finish: 'Stale' },
      }),
    );
    expect(err.data?.serviceCode).toBe('VERSION_CONFLICT');
    expect(err.data?.httpStatus).toBe(409);
    expect(await api.schedule.getScheduleLine.query({ projectId, lineId })).toEqual(before);
  });

  it('PRECONDITION_REQUIRED without expectedVersion', async () => {
    const err = await failure(
      api.schedule.updateScheduleLine.mutate({ projectId, lineId, patch: { finish: 'Unguarded' } }),
    );
    expect(err.data?.serviceCode).toBe('PRECONDITION_REQUIRED');
    expect(err.data?.httpStatus).toBe(428);
  });

  it('NOT_FOUND for an unknown line and for a line named under another project', async () => {
    const unknown = await failure(
      api.schedule.getScheduleLine.query({ projectId, lineId: '0000000000000000000000000z' }),
    );
    expect(unknown.data?.serviceCode).toBe('NOT_FOUND');
    expect(unknown.data?.httpStatus).toBe(404);
    const other = await api.projects.createStudioProject.mutate({ name: 'Mill Lane', commandKey: randomUUID() });
    const foreign = await failure(api.schedule.getScheduleLine.query({ projectId: other.id, lineId }));
    expect(foreign.data?.serviceCode).toBe('NOT_FOUND');
  });

  it('VALIDATION_FAILED with the field named, for money sent as a JSON number', async () => {
    const { version } = await api.schedule.getScheduleLine.query({ projectId, lineId });
    const err = await failure(
      api.schedule.updateScheduleLine.mutate({
        projectId,
        lineId,
        expectedVersion: version,
        patch: { retailPrice: { state: 'set', amount4: 12.5 as unknown as string } },
      }),
    );
    expect(err.data?.serviceCode).toBe('VALIDATION_FAILED');
    expect(err.data?.httpStatus).toBe(400);
    expect(err.data?.errors?.map((e) => e.path)).toContain('patch.retailPrice.amount4');
  });

  it('UNAUTHENTICATED with a bad token', async () => {
    const err = await failure(trpc(server.url, 'studio_not-a-real-token').projects.listStudioProjects.query({}));
    expect(err.data?.serviceCode).toBe('UNAUTHENTICATED');
    expect(err.data?.httpStatus).toBe(401);
  });

  it('FORBIDDEN for a viewer writing', async () => {
    const viewer = trpc(
      server.url,
      (await memberWithToken(server.database, 'viewer', [{ projectId, level: 'view' }])).token,
    );
    const { version } = await viewer.schedule.getScheduleLine.query({ projectId, lineId });
    const err = await failure(
      viewer.schedule.updateScheduleLine.mutate({
        projectId,
        lineId,
        expectedVersion: version,
        patch: { finish: 'Viewer' },
      }),
    );
    expect(err.data?.serviceCode).toBe('FORBIDDEN');
    expect(err.data?.httpStatus).toBe(403);
  });

  it('VALIDATION_FAILED for unreadable input, as a sentence without internals', async () => {
    const res = await http(server.url, 'GET', '/api/trpc/schedule.getScheduleLine?input=%7Bnot-json', {
      token: server.token,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.data.serviceCode).toBe('VALIDATION_FAILED');
    expectSentence(res.body.error.message);
    expectNoInternals(res.body);
  });

  it('NOT_FOUND for a procedure that does not exist', async () => {
    const res = await http(server.url, 'GET', '/api/trpc/schedule.noSuchProcedure?input=%7B%7D', {
      token: server.token,
    });
    expect(res.status).toBe(404);
    expect(res.body.error.data.serviceCode).toBe('NOT_FOUND');
  });

  it('METHOD_NOT_ALLOWED for a mutation sent as GET', async () => {
    const res = await http(
      server.url,
      'GET',
      `/api/trpc/schedule.updateScheduleLine?input=${encodeURIComponent(JSON.stringify({ projectId, lineId }))}`,
      { token: server.token },
    );
    expect(res.status).toBe(405);
    expect(res.body.error.data.serviceCode).toBe('METHOD_NOT_ALLOWED');
  });
});

describe("HTTP statuses are the catalog statuses, from tRPC's own codes", () => {
  /** A batching client that also keeps the HTTP status of every response it receives. */
  const batchingClient = () => batchingTrpc(server.url, server.token, { recordBodies: true });

  it('a single failed call answers with its catalog status: 428 for a versioned write without expectedVersion', async () => {
    const res = await http(server.url, 'POST', '/api/trpc/schedule.updateScheduleLine', {
      token: server.token,
      body: { projectId, lineId, patch: { finish: 'Unguarded' } },
    });
    expect(res.status).toBe(428);
    expect(res.body.error.data).toMatchObject({
      serviceCode: 'PRECONDITION_REQUIRED',
      code: 'PRECONDITION_REQUIRED',
      httpStatus: 428,
    });
  });

  it('a batch mixing a result and a 428 answers 207, and the failed entry carries httpStatus 428', async () => {
    const { client, requests } = batchingClient();
    const lines = await api.schedule.listScheduleLines.query({ projectId, limit: 3 });
    const [guarded, unguarded] = [lines.items[1]!, lines.items[2]!];
    // Two mutations in the same tick go out as one POST to /api/trpc/a,b?batch=1.
    const [ok, refused] = await Promise.allSettled([
      client.schedule.updateScheduleLine.mutate({
        projectId,
        lineId: guarded.id,
        expectedVersion: guarded.version,
        patch: { finish: `Batched ${randomUUID().slice(0, 6)}` },
      }),
      client.schedule.updateScheduleLine.mutate({ projectId, lineId: unguarded.id, patch: { finish: 'Unguarded' } }),
    ]);
    expect(ok.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    const err = await trpcFailure(Promise.reject((refused as PromiseRejectedResult).reason));
    expect(err.data?.serviceCode).toBe('PRECONDITION_REQUIRED');
    expect(err.data?.httpStatus).toBe(428);
    // One HTTP response for both calls. tRPC (getHTTPStatusCode) gives a batch the one status its entries share, and
    // 207 Multi-Status when they differ (here 200 and 428): the per-call status is each entry's data.httpStatus.
    expect(requests.map((r) => r.status)).toEqual([207]);
  });

  it('a batch whose calls all fail the same way answers that status', async () => {
    const { client, requests } = batchingClient();
    const results = await Promise.allSettled(
      [0, 1].map(() =>
        client.schedule.updateScheduleLine.mutate({ projectId, lineId, patch: { finish: 'Unguarded' } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(requests.map((r) => r.status)).toEqual([428]);
  });
});

it('saw only integer numbers in every JSON body it received', () => {
  expect(seenBodies.length).toBeGreaterThan(15);
});
