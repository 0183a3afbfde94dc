import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import type { AnyAction } from '../core/define-action.js';
import type { Runtime } from '../core/invoke.js';
import { ServiceError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { registerRestRoutes } from './rest.js';
import { registerTrpc } from './trpc.js';
import { sendProblem } from './problem.js';
import { registerDocs } from './docs.js';
import { registerMcpHttp } from './mcp-http.js';
import { registerAgentResults } from './agent-results.js';

/** Fastify's own failures (unreadable body, too large, wrong media type) in the one catalog's terms. */
function fromFastifyError(err: FastifyError): ServiceError {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError('PAYLOAD_TOO_LARGE', 'The request body is larger than this server accepts (1 MiB by default); send less data per request.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError('VALIDATION_FAILED', 'The body is empty but declared as JSON; send a JSON object or no Content-Type.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ServiceError('VALIDATION_FAILED', 'The body is not valid JSON; check quotes, commas and brackets.');
    default:
      if (err instanceof SyntaxError || err.statusCode === 400) return new ServiceError('VALIDATION_FAILED', 'The body is not valid JSON; check quotes, commas and brackets.');
      return new ServiceError('INTERNAL');
  }
}

/** The one HTTP server: `/v1`, `/api/trpc`, docs. MCP over HTTP mounts here too. */
export async function buildHttpApp(rt: Runtime, actions: readonly AnyAction[]): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: rt.config.bodyLimit,
    genReqId: () => newId(),
    // Prototype poisoning in JSON bodies is refused outright.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  // Bodies are JSON only: without this, fastify's built-in text/plain parser would hand a string to the routes and a
  // text/plain body would be a 400 instead of 415 UNSUPPORTED_MEDIA_TYPE.
  app.removeContentTypeParser('text/plain');
  // JSON merge patch is JSON (RFC 7396).
  app.addContentTypeParser('application/merge-patch+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const se = err instanceof ServiceError ? err : fromFastifyError(err);
    if (se.code === 'INTERNAL') rt.log?.(`unhandled error on ${req.method} ${req.url}`, err);
    if (req.url.startsWith('/api/trpc')) {
      return reply.code(se.status).send({ error: { message: se.detail, code: -32600, data: { serviceCode: se.code, httpStatus: se.status, requestId: req.id } } });
    }
    return sendProblem(reply, se, req.id);
  });
  app.setNotFoundHandler((req, reply) =>
    sendProblem(reply, new ServiceError('NOT_FOUND', `Nothing is served at ${req.method} ${req.url.split('?')[0]}; see /docs/openapi.json for the routes.`), req.id),
  );

  registerRestRoutes(app, rt, actions);
  await registerTrpc(app, rt, actions);
  registerDocs(app, rt, actions);
  registerMcpHttp(app, rt, actions);
  registerAgentResults(app, rt, actions);
  app.get('/health', async () => ({ status: 'ok' }));
  return app;
}
