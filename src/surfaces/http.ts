import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import type { AnyAction } from '../core/define-action.js';
import type { Runtime } from '../core/invoke.js';
import { ServiceError } from '../core/errors.js';
import { nextRequestId } from '../core/ids.js';
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
      return new ServiceError(
        'PAYLOAD_TOO_LARGE',
        'The request body is larger than this server accepts (1 MiB by default); send less data per request.',
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError(
        'VALIDATION_FAILED',
        'The body is empty but declared as JSON; send a JSON object or no Content-Type.',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ServiceError('VALIDATION_FAILED', 'The body is not valid JSON; check quotes, commas and brackets.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE_PARAMETER':
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE');
    default:
      if (/prototype|constructor/i.test(err.message)) {
        return new ServiceError(
          'VALIDATION_FAILED',
          'The body contains a "__proto__" or "constructor.prototype" key, which is never accepted; remove it.',
        );
      }
      if (err instanceof SyntaxError || err.statusCode === 400)
        return new ServiceError('VALIDATION_FAILED', 'The body is not valid JSON; check quotes, commas and brackets.');
      return new ServiceError('INTERNAL');
  }
}

/** The methods each `/v1` path template accepts, so a known path with another method answers 405 with Allow. */
function allowedMethods(actions: readonly AnyAction[]) {
  const routes = actions
    .filter((a) => a.kind === 'resource' && a.http)
    .map((a) => ({
      method: a.http!.method,
      pattern: new RegExp(`^/v1${a.http!.path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
    }));
  return (path: string) => [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))].sort();
}

/** The one HTTP server: `/v1`, `/api/trpc`, docs. MCP over HTTP mounts here too. */
export async function buildHttpApp(rt: Runtime, actions: readonly AnyAction[]): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: rt.config.bodyLimit,
    genReqId: nextRequestId,
    // Prototype poisoning in JSON bodies is refused outright.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  // Bodies are JSON only: without this, fastify's built-in text/plain parser would hand a string to the routes and a
  // text/plain body would be a 400 instead of 415 UNSUPPORTED_MEDIA_TYPE.
  app.removeContentTypeParser('text/plain');
  // JSON merge patch is JSON (RFC 7396).
  app.addContentTypeParser(
    'application/merge-patch+json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const se = err instanceof ServiceError ? err : fromFastifyError(err);
    if (se.code === 'INTERNAL') rt.log?.(`unhandled error on ${req.method} ${req.url}`, err);
    if (req.url.startsWith('/api/trpc')) {
      return reply.code(se.status).send({
        error: {
          message: se.detail,
          code: -32600,
          data: { serviceCode: se.code, httpStatus: se.status, requestId: req.id },
        },
      });
    }
    return sendProblem(reply, se, req.id);
  });
  const allowed = allowedMethods(actions);
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    const methods = allowed(path);
    if (methods.length) {
      reply.header('allow', methods.join(', '));
      return sendProblem(
        reply,
        new ServiceError('METHOD_NOT_ALLOWED', `${path} accepts ${methods.join(', ')}, not ${req.method}.`),
        req.id,
      );
    }
    return sendProblem(
      reply,
      new ServiceError(
        'NOT_FOUND',
        `Nothing is served at ${req.method} ${path}; see /docs/openapi.json for the routes.`,
      ),
      req.id,
    );
  });

  registerRestRoutes(app, rt, actions);
  await registerTrpc(app, rt, actions);
  registerDocs(app, rt, actions);
  registerMcpHttp(app, rt, actions);
  registerAgentResults(app, rt, actions);
  app.get('/health', async () => ({ status: 'ok' }));
  return app;
}
