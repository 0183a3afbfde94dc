import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ERROR_CATALOG, problemBody, type ServiceError, toServiceError } from '../core/errors.js';

/** Answers with an RFC 9457 problem document carrying the stable `code`. */
export function sendProblem(reply: FastifyReply, err: unknown, requestId: string) {
  const se = toServiceError(err);
  if (se.code === 'UNAUTHENTICATED' && !reply.hasHeader('www-authenticate'))
    reply.header('www-authenticate', 'Bearer realm="studio"');
  return reply.code(se.status).type('application/problem+json').send(problemBody(se, requestId));
}

/**
 * The procedure API's error shape (tRPC's, with the stable `serviceCode` and the sentence): what the tRPC error
 * formatter returns, and what a failure answered before tRPC runs (authentication, limits) carries.
 */
export function trpcErrorShape(
  se: ServiceError,
  requestId: string | null,
  path: string | undefined,
  trpcCode: TRPC_ERROR_CODE_KEY = ERROR_CATALOG[se.code].trpc,
) {
  return {
    message: se.detail,
    code: TRPC_ERROR_CODES_BY_KEY[trpcCode],
    data: {
      code: trpcCode,
      httpStatus: ERROR_CATALOG[se.code].status,
      path,
      serviceCode: se.code,
      requestId,
      ...(se.errors ? { errors: se.errors } : {}),
      ...(se.extra ?? {}),
    },
  };
}

/** A failure in the envelope of the surface the request addressed: tRPC's under `/api/trpc`, problem+json elsewhere. */
export function sendFailure(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  const se = toServiceError(err);
  if (req.url.startsWith('/api/trpc')) {
    if (se.code === 'UNAUTHENTICATED' && !reply.hasHeader('www-authenticate'))
      reply.header('www-authenticate', 'Bearer realm="studio"');
    return reply
      .code(se.status)
      .type('application/json')
      .send({ error: trpcErrorShape(se, req.id, undefined) });
  }
  return sendProblem(reply, se, req.id);
}
