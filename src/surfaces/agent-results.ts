import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AnyAction } from '../core/define-action.js';
import { invoke, type Runtime } from '../core/invoke.js';
import { authenticate, bearerToken } from '../core/auth.js';
import { ServiceError } from '../core/errors.js';
import { parseInput } from '../core/validation.js';
import { pagedRead } from './result-pages/paging.js';
import { snapshotsOf } from './result-pages/snapshot-cache.js';

const query = z.strictObject({
  name: z.string().min(1).max(100),
  input: z.string().max(100_000).optional(),
  selection: z.string().max(4_000).optional(),
});

const selectionSchema = z.strictObject({
  snapshot: z.string().max(64).optional(),
  path: z.string().max(2000).optional(),
  offset: z.int().min(0).optional(),
});

function parseJson(text: string | undefined, field: string): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${field} is not valid JSON; URL-encode a JSON object, e.g. ${field}=%7B%7D.`,
      {
        errors: [{ path: field, message: 'Not valid JSON.' }],
      },
    );
  }
}

/**
 * `GET /api/agent-results?name=&input=&selection=`: a read of the procedure API (or a resource read) for agents,
 * bounded like MCP's read_action_result. `input` is the action's input as JSON (what tRPC takes), `selection` is
 * `{"snapshot","path","offset"}` from a returned result_page. Small results come back as `{ result }`, large ones as
 * `{ result_page }`. Writes are refused: they are never re-run to read pages.
 */
export function registerAgentResults(app: FastifyInstance, rt: Runtime, actions: readonly AnyAction[]) {
  const byName = new Map(actions.map((a) => [a.name, a]));
  app.get('/api/agent-results', async (req, reply) => {
    // Admission authenticated the token before the request was read.
    const caller = req.caller ?? (await authenticate(rt.store, bearerToken(req.headers.authorization)));
    const q = parseInput(query, req.query);
    const action = byName.get(q.name);
    if (!action)
      throw new ServiceError('NOT_FOUND', `No action is named ${q.name}; /docs/api/actions.json lists them all.`);
    if (action.effect !== 'query') {
      const how = action.trpcPath
        ? `POST /api/trpc/${action.trpcPath}`
        : action.http
          ? `${action.http.method} /v1${action.http.path}`
          : 'MCP call_action';
      throw new ServiceError(
        'METHOD_NOT_ALLOWED',
        `${q.name} changes data and agent results only re-run reads; call it with ${how}.`,
      );
    }
    const input = parseJson(q.input, 'input') ?? {};
    const selection = parseInput(selectionSchema, parseJson(q.selection, 'selection') ?? {});
    const b = await pagedRead(
      snapshotsOf(rt),
      caller,
      action.name,
      input,
      selection,
      () => invoke(rt, action, input, { caller, requestId: req.id }),
      (d) => ({ result: d }),
    );
    return reply
      .header('cache-control', 'no-store')
      .send('whole' in b ? { result: b.whole } : { result_page: b.result_page });
  });
}
