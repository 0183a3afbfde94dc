import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import type { Runtime } from '../core/invoke.js';
import type { Caller } from '../core/context.js';
import { authenticate, bearerToken, keptApiCaller } from '../core/auth.js';
import { problemBody, ServiceError, toServiceError } from '../core/errors.js';
import { nextRequestId } from '../core/ids.js';
import { sendFailure } from './problem.js';
import { redactPath } from './redact.js';
import { isSharePagePath, sendUnavailable } from './share-page/route.js';
import { CAPABILITY_HEADERS, isShareApiPath } from './capability-headers.js';
import { SHARE_REFUSED } from '../domain/shares/resolve.js';
import { isDownloadPath, sendDownloadRefused } from './downloads.js';
import { isInvitationPagePath, sendInvitationRefused } from './pages/invitation.js';
import { mcpResource, resourceMetadataUrl } from '../domain/oauth/urls.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The member the bearer token acts for, resolved once by admission on authenticated routes. */
    caller: Caller | null;
    /** The bytes of body memory admission holds for this request (null without a body); see registerAdmission. */
    bodyBytes: BodyBytes | null;
  }
  interface FastifyContextConfig {
    /** A route anyone may call (a share link authorises itself through its path): admission asks for no token. */
    anonymous?: boolean;
    /** The route streams its body to disk (an upload), so the body holds no memory and takes none of the budget. */
    streamsBody?: boolean;
  }
}

/** A request's share of the body memory budget, given back as it stops being held. */
export interface BodyBytes {
  held: number;
  /** Gives back `n` bytes of it now (body bytes a route has moved to disk), the rest when the request is answered. */
  release(n: number): void;
}

const MiB = (n: number) => `${Math.round(n / 1048576)} MiB`;

/** Routes that need a bearer token before anything else, body included, is read. */
const AUTHENTICATED = /^\/(?:v1\/|api\/trpc\/|mcp$|api\/agent-results$)/;
/** Share links (`/v1/shares/{token}/…`) carry their own authority in the path. */
const SHARE_ROUTE = /^\/v1\/shares\/:[^/]+\//;

/** True when the request carries (or announces) a body. */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Connections draining the body of a request already refused: a timeout then closes them without a second answer. */
const draining = new WeakSet<Socket>();

/**
 * Refuses a request before its body is read. A body of an acceptable size is then read and dropped by node (never
 * kept), so the client, still sending, reads the answer rather than a reset, and the connection can be reused; a
 * client trickling it is cut off by the request timeout. A larger or unsized body is not worth reading: the
 * connection closes after the answer.
 */
export function refuse(req: FastifyRequest, reply: FastifyReply, err: ServiceError) {
  if (hasBody(req.raw)) {
    const length = Number(req.headers['content-length']);
    if (Number.isSafeInteger(length) && length <= req.server.initialConfig.bodyLimit!) {
      const socket = req.raw.socket;
      draining.add(socket);
      req.raw.once('end', () => draining.delete(socket));
    } else {
      reply.header('connection', 'close');
    }
  }
  return sendFailure(req, reply, err);
}

export interface AdmissionOptions {
  /**
   * For a route that takes calls to several actions (tRPC's `/api/trpc/:path`): true when every call the request
   * names may be made without a token, so admission lets it through unauthenticated.
   */
  anonymousCall?: (req: FastifyRequest) => boolean;
}

/**
 * Admission: what every HTTP request passes before fastify reads its body, in order.
 * 1. One Host header (RFC 9112 §3.2: a request with several, or an HTTP/1.1 request with none, is answered 400).
 * 2. A request for no route is answered at once (404, or 405 with Allow on a known path), its body unread.
 * 3. Authenticated routes (`/v1` but share links, `/api/trpc`, `/mcp`, `/api/agent-results`) need a valid bearer
 *    token: 401 UNAUTHENTICATED otherwise. An API token works on all of them; an OAuth access token only on `/mcp`,
 *    its audience. The caller is kept on the request, so `invoke` does not look it up again.
 * 4. At most `maxInflightBodies` admitted requests with a body at once, and bodies held in memory bounded by their
 *    bytes (`maxInflightBodyBytes`): a request takes its declared length (its route's limit when undeclared) from the
 *    budget before its body is read, and gives it back when answered; what a route moves to disk as it reads (an
 *    upload's body, the base64 file in an MCP call) it gives back as it goes, and an upload route takes none. Past
 *    either bound: 503 SERVER_BUSY with Retry-After, the body unread.
 * All four attach to each route as it is registered (one hook, made for the route), so every future route inherits them;
 * a request for no route passes steps 1 and 2 in a scope of its own.
 */
export function registerAdmission(app: FastifyInstance, rt: Runtime, opts: AdmissionOptions = {}) {
  app.decorateRequest('caller', null);
  app.decorateRequest('bodyBytes', null);
  const unrouted = unroutedAnswer(app);
  const boundedBodies = boundedBodiesHook(app, rt);
  // Each route's admission is made for it when it is registered, so nothing about the route is looked up per request,
  // and it is one hook. A route's own hooks (MCP's Origin guard, tRPC's batch limit) run between steps 2 and 3.
  app.addHook('onRoute', (route: RouteOptions) => {
    const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    const anonymous = route.config?.anonymous === true || SHARE_ROUTE.test(route.url);
    const wildcard = route.url.endsWith('*');
    const passes = (req: FastifyRequest, reply: FastifyReply) => wellFormed(req, reply, wildcard, unrouted);
    const back =
      AUTHENTICATED.test(route.url) && !anonymous
        ? authenticatedHook(rt, opts, route.url === '/mcp', boundedBodies)
        : boundedBodies;
    const front: onRequestHookHandler = (req, reply, done) => void (passes(req, reply) && done());
    const whole: onRequestHookHandler = function (this: FastifyInstance, req, reply, done) {
      if (passes(req, reply)) back.call(this, req, reply, done);
    };
    route.onRequest = (own.length ? [front, ...own, back] : [whole]) as never;
  });
  // A request for no route: its Host headers, then 404 or 405, its body unread. In a scope of its own, so this hook
  // runs for such requests alone.
  void app.register(async (scope) => {
    scope.addHook('onRequest', (req, reply) => {
      const malformed = malformedRequest(req);
      return malformed ? refuse(req, reply, malformed) : unrouted(req, reply);
    });
    scope.setNotFoundHandler(unrouted);
  });
}

/**
 * Steps 1 and 2 for a route, true when the request passes them (else it has been answered): its Host headers, then a
 * path ending in a slash, which no route serves. A wildcard route (/s/*, /downloads/*: a capability in the path) owns
 * every path under it, a trailing slash too: it refuses a token that is empty as it refuses any other that does not
 * work, identically.
 */
function wellFormed(
  req: FastifyRequest,
  reply: FastifyReply,
  wildcard: boolean,
  unrouted: (req: FastifyRequest, reply: FastifyReply) => unknown,
): boolean {
  const malformed = malformedRequest(req);
  if (malformed) {
    refuse(req, reply, malformed);
    return false;
  }
  if (!wildcard && pathEndsInSlash(req.url)) {
    unrouted(req, reply);
    return false;
  }
  return true;
}

// Step 3: the caller is found once, before the body is read, and kept on the request for invoke; then step 4.
// A token this process read a moment ago is answered without waiting (auth.ts keeps it); any other is read.
function authenticatedHook(
  rt: Runtime,
  opts: AdmissionOptions,
  mcp: boolean,
  next: onRequestHookHandler,
): onRequestHookHandler {
  return function authenticated(this: FastifyInstance, req, reply, done) {
    const token = bearerToken(req.headers.authorization);
    const kept = keptApiCaller(rt.store, token);
    if (kept) {
      req.caller = kept;
      return next.call(this, req, reply, done);
    }
    // `/mcp` is an OAuth protected resource: its own OAuth access tokens are accepted there (and only there). Its
    // address is read now: the port is settled when the server listens, after its routes are made.
    authenticate(rt.store, token, mcp ? { resource: mcpResource(rt.config) } : {}).then(
      (caller) => {
        req.caller = caller;
        next.call(this, req, reply, done);
      },
      (err: unknown) => {
        if (opts.anonymousCall?.(req)) return next.call(this, req, reply, done);
        // RFC 6750: no error code when no credentials were sent; invalid_token when they were refused. On `/mcp` the
        // challenge names the Protected Resource Metadata (RFC 9728 §5.1), where an MCP client starts OAuth.
        const metadata = mcp ? `, resource_metadata="${resourceMetadataUrl(rt.config)}"` : '';
        reply.header(
          'www-authenticate',
          token
            ? `Bearer realm="studio"${metadata}, error="invalid_token", error_description="The token is unknown, revoked or expired"`
            : `Bearer realm="studio"${metadata}`,
        );
        refuse(req, reply, toServiceError(err));
      },
    );
  } as onRequestHookHandler;
}

// Step 4: the slots and bytes of bodies in flight are the server's, so the hook that keeps them is made once per server.
function boundedBodiesHook(app: FastifyInstance, rt: Runtime): onRequestHookHandler {
  let inflight = 0;
  let heldBytes = 0;
  const max = rt.config.maxInflightBodies;
  const maxBytes = rt.config.maxInflightBodyBytes;
  const busy = (req: FastifyRequest, reply: FastifyReply, sentence: string) => {
    reply.header('retry-after', '1');
    return refuse(
      req,
      reply,
      new ServiceError('SERVER_BUSY', `${sentence}; wait a moment (see Retry-After) and send this one again.`),
    );
  };
  return (req, reply, done) => {
    if (!hasBody(req.raw)) return done();
    if (inflight >= max)
      return void busy(req, reply, `${max} requests with a body are already being received or answered`);
    const limit = req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit!;
    const declared = Number(req.headers['content-length']);
    const wanted = req.routeOptions.config.streamsBody
      ? 0
      : Math.min(Number.isSafeInteger(declared) ? declared : limit, limit, maxBytes);
    if (wanted > maxBytes - heldBytes) {
      return void busy(
        req,
        reply,
        `Requests holding ${MiB(heldBytes)} of body are already being received or answered (at most ${MiB(maxBytes)} at once, and this one is ${MiB(wanted)})`,
      );
    }
    inflight++;
    heldBytes += wanted;
    const share: BodyBytes = {
      held: wanted,
      release(n) {
        const given = Math.min(Math.max(0, n), share.held);
        share.held -= given;
        heldBytes -= given;
      },
    };
    req.bodyBytes = share;
    // 'close' follows the answer, an abort and a timeout alike, so the slot and the bytes are always given back.
    reply.raw.once('close', () => {
      inflight--;
      share.release(share.held);
    });
    done();
  };
}

/**
 * The answer for a path no route serves: 405 with Allow when other methods are served there, 404 otherwise. A path
 * ending in a slash serves nothing (a route's last parameter would otherwise match it empty): 404 whatever the method.
 * A route that matched and found nothing (`/fonts/:file` for a file it does not ship) answers here too: its own
 * method is served at the path, so that is a 404, never a 405 naming the very method asked.
 */
function unroutedAnswer(app: FastifyInstance) {
  // The methods the router serves at a path, asked of the router itself.
  const allowed = (path: string) =>
    app.supportedMethods.filter((method) => app.findRoute({ method, url: path })).sort();

  return (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0]!;
    const trimmed = endsInSlash(path) ? path.replace(/\/+$/, '') : undefined;
    const methods = trimmed === undefined ? allowed(path) : [];
    if (methods.length && !methods.includes(req.method)) {
      reply.header('allow', methods.join(', '));
      return refuse(
        req,
        reply,
        new ServiceError('METHOD_NOT_ALLOWED', `${redactPath(path)} accepts ${methods.join(', ')}, not ${req.method}.`),
      );
    }
    // `/downloads/` with nothing after it is a link too, and refused as every link that does not work is.
    if (isDownloadPath(path)) return sendDownloadRefused(reply);
    const hint =
      trimmed && allowed(trimmed).length
        ? `paths never end in a slash: use ${redactPath(trimmed)}`
        : 'see /docs/openapi.json for the routes';
    return refuse(
      req,
      reply,
      new ServiceError('NOT_FOUND', `Nothing is served at ${req.method} ${redactPath(path)}; ${hint}.`),
    );
  };
}

/** What makes a request unanswerable before any route looks at it: its Host headers (RFC 9112 §3.2). */
function malformedRequest(req: FastifyRequest): ServiceError | undefined {
  const hosts = hostHeaders(req.raw);
  if (hosts > 1)
    return new ServiceError('VALIDATION_FAILED', 'The request has more than one Host header; send exactly one.');
  // HTTP/1.0 has no Host; HTTP/1.1 requires one.
  if (hosts === 0 && req.raw.httpVersion === '1.1')
    return new ServiceError(
      'VALIDATION_FAILED',
      'The request has no Host header, which HTTP/1.1 requires; send exactly one, naming this server.',
    );
  return undefined;
}

/** Paths never end in a slash (but the root, `/`). */
const endsInSlash = (path: string) => path.length > 1 && path.endsWith('/');

/** endsInSlash for the path of a URL that may carry a query, read where it lies (no copy of the path per request). */
function pathEndsInSlash(url: string): boolean {
  const query = url.indexOf('?');
  const end = query === -1 ? url.length : query;
  return end > 1 && url.charCodeAt(end - 1) === 47 /* / */;
}

function hostHeaders(req: IncomingMessage): number {
  let n = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') n++;
  return n;
}

/**
 * Failures node's HTTP parser reports before fastify sees a request (a timeout, headers too large, bytes that are not
 * HTTP), answered as a problem document with a catalog code instead of fastify's own body, then the connection closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (draining.has(socket)) return void socket.destroy();
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return timedOutUnlessWaiting(err, socket);
  answerClientError(err, socket);
}

/**
 * Node checks its timeouts between turns of the event loop, before the turn that reads what has arrived since. A server
 * kept busy past the headers timeout (reading a flood of bodies, say) would then answer 408 to a connection whose
 * request has been sitting in its socket, unread: the server's delay, blamed on the client. So a connection that has
 * sent nothing the server has read is given the next turn. If its bytes were waiting, that turn reads them and node
 * times the request from its first byte, as it does every request; if none were, the client really sent nothing in
 * time. A connection that has sent something is judged at once: node stops timing a connection it reports, so another
 * turn could leave a trickled request untimed.
 */
function timedOutUnlessWaiting(err: NodeJS.ErrnoException, socket: Socket) {
  if (socket.bytesRead > 0) return answerClientError(err, socket);
  setImmediate(() => {
    if (!socket.destroyed && socket.bytesRead === 0) answerClientError(err, socket);
  });
}

function answerClientError(err: NodeJS.ErrnoException, socket: Socket) {
  const se =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ServiceError('REQUEST_TIMEOUT')
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? new ServiceError('VALIDATION_FAILED', 'The request headers (or its URL) are too large; send less in them.')
        : new ServiceError(
            'VALIDATION_FAILED',
            'The request is not well-formed HTTP/1.1; check the method and headers.',
          );
  if (socket.writable) {
    const body = JSON.stringify(problemBody(se, nextRequestId()));
    socket.write(
      `HTTP/1.1 ${se.status} ${se.status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Fastify's router failures (a bad percent-encoding, an over-long path segment) in the catalog's terms. */
export function frameworkErrors(err: Error & { code?: string }, req: FastifyRequest, reply: FastifyReply) {
  // A share link's page refuses every link that does not work alike, an unreadable one too.
  if (isSharePagePath(req.url)) return sendUnavailable(reply);
  // …and so do the share operations: an unreadable token is a malformed one, refused as every other that does not work.
  if (isShareApiPath(req.url))
    return refuse(req, reply.headers(CAPABILITY_HEADERS), new ServiceError('FORBIDDEN', SHARE_REFUSED));
  // A download link refuses every link that does not work alike, an unreadable one too.
  if (isDownloadPath(req.url)) return sendDownloadRefused(reply);
  // …and so does an invitation's page.
  if (isInvitationPagePath(req.url)) return sendInvitationRefused(reply);
  const se =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ServiceError(
          'VALIDATION_FAILED',
          'A segment of the path is far longer than any id or procedure list; check the URL.',
        )
      : new ServiceError('VALIDATION_FAILED', 'The path is not a valid URL (check its percent-encoding).');
  return refuse(req, reply, se);
}
