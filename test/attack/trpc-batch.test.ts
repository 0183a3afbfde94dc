/**
 * tRPC batches through the official `httpBatchLink` client against the real server process: every call made in the
 * same tick travels as one `GET /api/trpc/a,b,c…?batch=1`, up to TRPC_MAX_BATCH calls; a larger batch is refused with
 * a catalog code in tRPC's envelope, never fastify's own 414.
 */
import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../generated/router.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS } from '../../actions/index.js';
import { TRPC_MAX_BATCH } from '../../src/surfaces/trpc.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { expectCatalogEnvelope, rawRequest } from '../helpers/raw-http.js';
import { batchingTrpc } from '../helpers/clients.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const batchingClient = () => batchingTrpc(server.url, server.token);

describe('httpBatchLink', () => {
  it.each([5, 10, TRPC_MAX_BATCH])('%i concurrent queries travel as one batch and all succeed', async (n) => {
    const { client, requests } = batchingClient();
    const results = await Promise.all(
      Array.from({ length: n }, () => client.projects.listStudioProjects.query({ limit: 1 })),
    );
    expect(results).toHaveLength(n);
    for (const r of results) expect(r.items[0]?.name).toBe('Harbour House');
    expect(requests).toEqual([{ status: 200, calls: n }]);
  });

  it(`${TRPC_MAX_BATCH + 1} concurrent queries are refused together with VALIDATION_FAILED in the tRPC envelope`, async () => {
    const { client, requests } = batchingClient();
    const results = await Promise.allSettled(
      Array.from({ length: TRPC_MAX_BATCH + 1 }, () => client.projects.listStudioProjects.query({ limit: 1 })),
    );
    expect(requests).toEqual([{ status: 400, calls: TRPC_MAX_BATCH + 1 }]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const err = (r as PromiseRejectedResult).reason as TRPCClientError<AppRouter>;
      expect(err).toBeInstanceOf(TRPCClientError);
      expect(err.data?.serviceCode).toBe('VALIDATION_FAILED');
      expect(err.data?.httpStatus).toBe(400);
      expect(err.message).toMatch(new RegExp(`at most ${TRPC_MAX_BATCH} calls`));
    }
  });
});

describe('the longest batch path', () => {
  it(`${TRPC_MAX_BATCH} calls of the longest procedure name reach the procedures (each answers for itself)`, async () => {
    const longest = ACTIONS.filter((a) => a.trpcPath).sort((a, b) => b.trpcPath!.length - a.trpcPath!.length)[0]!;
    const inputs = Object.fromEntries(Array.from({ length: TRPC_MAX_BATCH }, (_, i) => [i, {}]));
    const res = await rawRequest(server.url, {
      method: longest.effect === 'query' ? 'GET' : 'POST',
      path: `/api/trpc/${Array(TRPC_MAX_BATCH).fill(longest.trpcPath).join(',')}?batch=1`,
      headers: [
        ['Authorization', `Bearer ${server.token}`],
        ['Content-Type', 'application/json'],
      ],
      body: longest.effect === 'query' ? undefined : JSON.stringify(inputs),
    });
    // Empty input is refused by each procedure's own validation: the batch itself was accepted whole.
    expect(Array.isArray(res.json), res.body.slice(0, 300)).toBe(true);
    expect(res.json).toHaveLength(TRPC_MAX_BATCH);
    expectCatalogEnvelope(res, longest.trpcPath!);
    for (const entry of res.json) expect(entry.error.data.path).toBe(longest.trpcPath);
  });
});
