import type { FastifyReply } from 'fastify';
import { problemBody, toServiceError } from '../core/errors.js';

/** Answers with an RFC 9457 problem document carrying the stable `code`. */
export function sendProblem(reply: FastifyReply, err: unknown, requestId: string) {
  const se = toServiceError(err);
  if (se.code === 'UNAUTHENTICATED') reply.header('www-authenticate', 'Bearer realm="studio"');
  return reply.code(se.status).type('application/problem+json').send(problemBody(se, requestId));
}
