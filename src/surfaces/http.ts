import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import type { AnyAction } from '../core/define-action.js';
import type { Runtime } from '../core/invoke.js';
import { ServiceError } from '../core/errors.js';
import { nextRequestId } from '../core/ids.js';
import { registerRestRoutes } from './rest.js';
import { registerFileRoutes } from './file-routes.js';
import { anonymousTrpcCall, longestBatchPath, registerTrpc } from './trpc.js';
import { sendFailure } from './problem.js';
import { clientErrorHandler, frameworkErrors, registerAdmission } from './admission.js';
import { registerDocs } from './docs.js';
import { registerMcpHttp } from './mcp-http.js';
import { registerAgentResults } from './agent-results.js';
import { registerSharePage } from './share-page/route.js';
import { registerFonts } from './fonts.js';
import { registerDecisionForms } from './share-page/decision/forms.js';
import { registerDownloads } from './downloads.js';
import { registerAccountingCallback } from './accounting-callback.js';
import { registerAccountPages } from './pages/route.js';
import { SignInLimits } from './pages/sign-in-limits.js';
import { registerOAuth } from './oauth/routes.js';
import { redactPath } from './redact.js';
import { loggerOptions, RequestLog, requestLogger } from './request-log.js';
import { registerHealth } from './health.js';
import { keepConnectionsBeingAnswered } from './idle-timeout.js';
import { settlePort } from '../config.js';
import { startHeartbeat } from '../domain/serving/heartbeat.js';

/** A size in bytes as a person reads it: whole MiB or KiB when it is one, else bytes. */
export function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en')} bytes`;
}

/**
 * Fastify's own failures (unreadable body, too large, wrong media type) in the one catalog's terms; `bodyLimit` is
 * the limit of the route the request addressed.
 */
function fromFastifyError(err: FastifyError, bodyLimit: number): ServiceError {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError(
        'PAYLOAD_TOO_LARGE',
        `The request body is larger than ${sizeInWords(bodyLimit)}, the most this route accepts; send less data per request.`,
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

/**
 * Node checks its connections for timeouts this often: a fraction of the shortest timeout, so a request is cut off
 * soon after its time is up (node's own default, 30 s, would let a short timeout run several times over).
 */
const checkingInterval = (config: Runtime['config']) =>
  Math.min(30_000, Math.max(50, Math.floor(Math.min(config.headersTimeout, config.requestTimeout) / 4)));

/**
 * The one HTTP server: `/v1`, `/api/trpc`, docs, and the client pages of share links (`/s/…`). MCP over HTTP mounts
 * here too, with the OAuth authorization server that issues its tokens (`/authorize`, `/token`, `/.well-known/…`).
 */
export async function buildHttpApp(rt: Runtime, actions: readonly AnyAction[]): Promise<FastifyInstance> {
  const { config } = rt;
  const app = Fastify({
    logger: loggerOptions(config),
    // One line per request, not fastify's two, its id named as the problem documents name it.
    logController: new RequestLog(),
    childLoggerFactory: requestLogger,
    bodyLimit: config.bodyLimit,
    genReqId: nextRequestId,
    // Prototype poisoning in JSON bodies is refused outright.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // A client has this long for its headers, and this long for its whole request; then 408 REQUEST_TIMEOUT.
    requestTimeout: config.requestTimeout,
    http: {
      headersTimeout: Math.min(config.headersTimeout, config.requestTimeout),
      requestTimeout: config.requestTimeout,
      connectionsCheckingInterval: checkingInterval(config),
      // An HTTP/1.1 request without Host would get node's own empty 400; admission answers it as a problem instead.
      requireHostHeader: false,
    },
    keepAliveTimeout: config.keepAliveTimeout,
    // A connection silent this long is closed, unless it is silent because its answer is still being worked on.
    connectionTimeout: config.idleTimeout,
    routerOptions: {
      // A tRPC batch names up to TRPC_MAX_BATCH procedures in one path segment; anything longer is refused.
      maxParamLength: longestBatchPath(actions),
      // A path ending in a slash is another path: 404 NOT_FOUND, whose detail names the path without it.
      ignoreTrailingSlash: false,
      ignoreDuplicateSlashes: false,
    },
    clientErrorHandler,
    frameworkErrors,
  });
  keepConnectionsBeingAnswered(app.server);
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
    const se =
      err instanceof ServiceError ? err : fromFastifyError(err, req.routeOptions.bodyLimit ?? config.bodyLimit);
    if (se.code === 'INTERNAL') rt.log?.(`unhandled error on ${req.method} ${redactPath(req.url)}`, err);
    return sendFailure(req, reply, se);
  });
  // Before any route: every route registered from here on is admitted (authenticated, bounded) the same way.
  registerAdmission(app, rt, { anonymousCall: anonymousTrpcCall(actions) });

  registerRestRoutes(app, rt, actions);
  registerFileRoutes(app, rt, actions);
  await registerTrpc(app, rt, actions);
  registerDocs(app, rt, actions);
  registerMcpHttp(app, rt, actions);
  registerAgentResults(app, rt, actions);
  registerSharePage(app, rt);
  registerFonts(app);
  await registerDecisionForms(app, rt, actions);
  registerDownloads(app, rt);
  registerAccountingCallback(app, rt);
  // One set of sign-in limits for every page that checks a password (the account pages and the consent pages).
  const signIns = new SignInLimits();
  await registerAccountPages(app, rt, signIns);
  await registerOAuth(app, rt, signIns);
  registerHealth(app, rt);
  keepHeartbeat(app, rt);
  return app;
}

/**
 * While the server listens it beats in the database (serving_heartbeats), so a stdio MCP server beside it hands out
 * links at the address it really serves, and says so when none does. The base URL is settled to the port it got first.
 */
function keepHeartbeat(app: FastifyInstance, rt: Runtime): void {
  let heartbeat: { stop(): Promise<void> } | undefined;
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (typeof address === 'object' && address) settlePort(rt.config, address.port);
    heartbeat ??= startHeartbeat(rt.store, rt.config, rt.log);
  });
  app.addHook('onClose', async () => {
    await heartbeat?.stop();
  });
}
