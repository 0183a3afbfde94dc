import { type AnyRouter, initTRPC, TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyRequestHandler, type CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { AnyAction } from '../core/define-action.js';
import type { Caller } from '../core/context.js';
import { invoke, type Runtime } from '../core/invoke.js';
import { ERROR_CATALOG, ServiceError, toServiceError } from '../core/errors.js';
import { bearerToken } from '../core/auth.js';
import { trpcErrorShape } from './problem.js';
import { refuse } from './admission.js';

/**
 * The most calls one batch request may carry (`GET /api/trpc/a,b,c?batch=1`). The official `httpBatchLink` sends every
 * call made in the same tick as one batch; give it `maxItems: 50` to split larger bursts itself.
 */
export const TRPC_MAX_BATCH = 50;

/** The longest procedure path (`domain.camelCaseName`) in the catalog, and so the longest batch path segment. */
export function longestBatchPath(actions: readonly AnyAction[]): number {
  const longest = Math.max(0, ...actions.map((a) => a.trpcPath?.length ?? 0));
  return (longest + 1) * TRPC_MAX_BATCH;
}

interface TrpcContext {
  token?: string;
  /** The member admission authenticated for this request (absent for calls anyone may make). */
  caller?: Caller;
  requestId: string;
}

const t = initTRPC.context<TrpcContext>().create({
  /**
   * The procedure API's own envelope: tRPC's error shape, with the stable `serviceCode`, the sentence and any field
   * problems under `data`. Never a stack trace.
   */
  errorFormatter({ shape, error, ctx }) {
    return trpcErrorShape(serviceErrorOf(error), ctx?.requestId ?? null, shape.data.path, shape.data.code);
  },
});

/** Errors tRPC raises itself (unknown path, unreadable input, wrong method) mapped onto the one catalog. */
function serviceErrorOf(error: TRPCError): ServiceError {
  if (error.cause instanceof ServiceError) return error.cause;
  switch (error.code) {
    case 'NOT_FOUND':
      return new ServiceError(
        'NOT_FOUND',
        'No such procedure; the procedure paths are listed in /docs/api/actions.json.',
      );
    case 'PARSE_ERROR':
    case 'BAD_REQUEST':
      return new ServiceError('VALIDATION_FAILED', `The request could not be read: ${error.message}`);
    case 'METHOD_NOT_SUPPORTED':
      return new ServiceError('METHOD_NOT_ALLOWED', 'Queries use GET and mutations use POST.');
    case 'PAYLOAD_TOO_LARGE':
      return new ServiceError('PAYLOAD_TOO_LARGE');
    case 'UNSUPPORTED_MEDIA_TYPE':
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Send procedure input as application/json.');
    default:
      return toServiceError(error.cause);
  }
}

/** The tRPC code for each of our codes comes from the one catalog; its HTTP status is the catalog's status. */
const trpcCode = (se: ServiceError) => ERROR_CATALOG[se.code].trpc;

/** The runtime router: one procedure per procedure action, nested by domain; every call goes through `invoke`. */
export function buildRouter(rt: Runtime, actions: readonly AnyAction[]) {
  const domains: Record<string, Record<string, unknown>> = {};
  for (const action of actions) {
    if (action.kind !== 'procedure') continue;
    const [domain, name] = action.trpcPath!.split('.') as [string, string];
    const base = t.procedure.input((raw: unknown) => raw);
    const resolve = async ({ ctx, input }: { ctx: TrpcContext; input: unknown }) => {
      try {
        return await invoke(rt, action, input, { caller: ctx.caller, token: ctx.token, requestId: ctx.requestId });
      } catch (err) {
        const se = toServiceError(err);
        throw new TRPCError({ code: trpcCode(se), message: se.detail, cause: se });
      }
    };
    (domains[domain] ??= {})[name] = action.effect === 'query' ? base.query(resolve) : base.mutation(resolve);
  }
  return t.router(
    Object.fromEntries(Object.entries(domains).map(([d, procs]) => [d, t.router(procs as never)])) as never,
  );
}

/** The procedure paths a request names: `a,b,c` of `/api/trpc/a,b,c?batch=1`. */
function procedurePaths(req: FastifyRequest): string[] {
  const path = req.url.slice('/api/trpc/'.length).split('?')[0] ?? '';
  return decodeURIComponent(path).split(',');
}

/** True when every procedure a request names may be called without a token (scope `capability`). */
export function anonymousTrpcCall(actions: readonly AnyAction[]): (req: FastifyRequest) => boolean {
  const anonymous = new Set(actions.filter((a) => a.scope === 'capability' && a.trpcPath).map((a) => a.trpcPath!));
  if (anonymous.size === 0) return () => false;
  return (req) => {
    if (!req.url.startsWith('/api/trpc/')) return false;
    try {
      return procedurePaths(req).every((p) => anonymous.has(p));
    } catch {
      return false;
    }
  };
}

/** A batch larger than TRPC_MAX_BATCH is refused before any of it runs (or its body is read). */
async function batchLimit(req: FastifyRequest, reply: FastifyReply) {
  const query = req.url.indexOf('?');
  if (query < 0 || !/(?:^|&)batch=1(?:&|$)/.test(req.url.slice(query + 1))) return;
  const calls = req.url.slice(0, query).split(/,|%2C/i).length;
  if (calls > TRPC_MAX_BATCH) {
    return refuse(
      req,
      reply,
      new ServiceError(
        'VALIDATION_FAILED',
        `A batch may hold at most ${TRPC_MAX_BATCH} calls and this one holds ${calls}; send them in smaller batches (httpBatchLink's maxItems).`,
      ),
    );
  }
}

/**
 * `/api/trpc/:path` for queries (GET, and HEAD) and mutations (POST) only, so any other
 * method is a 405 with an honest Allow. tRPC's own handler, as its fastify plugin mounts it, but without the plugin's
 * catch-all methods and multipart parser.
 */
export async function registerTrpc(app: FastifyInstance, rt: Runtime, actions: readonly AnyAction[]) {
  const router = buildRouter(rt, actions);
  const createContext = ({ req }: CreateFastifyContextOptions): TrpcContext => ({
    token: bearerToken(req.headers.authorization),
    caller: req.caller ?? undefined,
    requestId: req.id,
  });
  await app.register(async (scope) => {
    // tRPC reads the JSON itself, from the text.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.route<{ Params: { path: string } }>({
      // HEAD is tRPC's own (204); fastify's derived HEAD route cannot send the Response tRPC returns.
      method: ['GET', 'HEAD', 'POST'],
      exposeHeadRoute: false,
      url: '/api/trpc/:path',
      onRequest: batchLimit,
      handler: (req, reply) =>
        fastifyRequestHandler<AnyRouter, FastifyRequest, FastifyReply>({
          router,
          createContext,
          maxBatchSize: TRPC_MAX_BATCH,
          req,
          res: reply,
          path: req.params.path,
        }),
    });
  });
}
