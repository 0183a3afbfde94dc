import { initTRPC, TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { fastifyTRPCPlugin, type CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { AnyAction } from '../core/define-action.js';
import { invoke, type Runtime } from '../core/invoke.js';
import { ERROR_CATALOG, ServiceError, toServiceError } from '../core/errors.js';
import { bearerToken } from '../core/auth.js';

interface TrpcContext {
  token?: string;
  requestId: string;
}

const t = initTRPC.context<TrpcContext>().create({
  /**
   * The procedure API's own envelope: tRPC's error shape, with the stable `serviceCode`, the sentence and any field
   * problems under `data`. Never a stack trace.
   */
  errorFormatter({ shape, error, ctx }) {
    const se = serviceErrorOf(error);
    return {
      message: se.detail,
      code: shape.code,
      data: {
        code: shape.data.code,
        httpStatus: ERROR_CATALOG[se.code].status,
        path: shape.data.path,
        serviceCode: se.code,
        requestId: ctx?.requestId ?? null,
        ...(se.errors ? { errors: se.errors } : {}),
        ...(se.extra ?? {}),
      },
    };
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
        return await invoke(rt, action, input, { token: ctx.token, requestId: ctx.requestId });
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

export async function registerTrpc(app: FastifyInstance, rt: Runtime, actions: readonly AnyAction[]) {
  await app.register(fastifyTRPCPlugin, {
    prefix: '/api/trpc',
    trpcOptions: {
      router: buildRouter(rt, actions),
      createContext: ({ req }: CreateFastifyContextOptions): TrpcContext => ({
        token: bearerToken(req.headers.authorization),
        requestId: req.id,
      }),
    },
  });
}
