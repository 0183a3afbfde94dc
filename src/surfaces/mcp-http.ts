import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AnyAction } from '../core/define-action.js';
import type { Runtime } from '../core/invoke.js';
import type { Config } from '../config.js';
import { bearerToken } from '../core/auth.js';
import { problemBody, ServiceError, toServiceError } from '../core/errors.js';
import { createMcpServer } from './mcp/server.js';
import { type McpBody, readMcpBody } from './mcp/request-body.js';
import { refuse } from './admission.js';
import { sendFailure } from './problem.js';

/**
 * Streamable HTTP MCP at `/mcp`, stateless: every POST gets a new MCP server and transport, so no state (and no
 * response) can cross from one client to another (CVE-2026-25536 came from sharing them). Before anything runs:
 * 1. Host must name this server, and Origin, when sent, must be this server's own origin (its base URL, or exactly the
 *    scheme, name and port the request was addressed to: a page this server served) or one listed in
 *    STUDIO_ALLOWED_ORIGINS. A DNS-rebinding page sends its own name, and any other local page (another port on
 *    localhost) its own origin: 403 otherwise;
 * 2. admission (admission.ts) then needs a bearer token that resolves to a member: 401 with WWW-Authenticate otherwise.
 * Both run before the body is read.
 */
export function registerMcpHttp(app: FastifyInstance, rt: Runtime, actions: readonly AnyAction[]) {
  const hosts = allowedHostnames(rt.config);
  let origins: Set<string> | undefined;
  // The server's own origin is known once it listens (STUDIO_PORT=0 picks the port then).
  const allowedOrigins = () => (origins ??= originsOf(rt.config, app.server.address()));
  const guard = async (req: FastifyRequest, reply: FastifyReply) => {
    const refusal = originRefusal(req, hosts, allowedOrigins());
    if (refusal) return refuse(req, reply, new ServiceError('FORBIDDEN', refusal));
  };
  const post = async (req: FastifyRequest, reply: FastifyReply) => {
    const body = await readBody(rt, req, reply);
    // Refused: the problem is sent already.
    if (!body) return reply;
    await answer(rt, actions, { req, reply, body });
  };
  app.get('/mcp', { onRequest: guard }, notAllowed);
  app.delete('/mcp', { onRequest: guard }, notAllowed);
  // In a context of its own, every media type reaches the POST route unread: it reads the body itself.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    // Its own body limit: add_photograph sends a photograph of up to 24 MiB as base64 (other routes keep 1 MiB).
    scope.post('/mcp', { onRequest: guard, bodyLimit: rt.config.mcpBodyLimit }, post);
  });
}

/**
 * The message, read here as it arrives: a file sent base64 goes to a staged file, not into memory
 * (mcp/request-body.ts), and its bytes are given back to admission's body budget as they go. Undefined once a refusal
 * has been sent.
 */
async function readBody(rt: Runtime, req: FastifyRequest, reply: FastifyReply): Promise<McpBody | undefined> {
  const limit = rt.config.mcpBodyLimit;
  const tooLarge = () =>
    new ServiceError(
      'PAYLOAD_TOO_LARGE',
      `The request body is larger than /mcp accepts (${Math.floor(limit / 1048576)} MiB, which holds a 24 MiB file as base64); send a smaller file, or upload it over HTTP (up to 128 MiB for a photograph).`,
    );
  try {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Send MCP messages as application/json.');
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) throw tooLarge();
    return await readMcpBody(req.raw.iterator({ destroyOnReturn: false }), {
      limit,
      files: rt.files,
      tooLarge,
      released: (n) => req.bodyBytes?.release(n),
    });
  } catch (err) {
    // The rest of the body is never read: the connection closes after the answer.
    reply.header('connection', 'close');
    const se = toServiceError(err);
    if (se.code === 'INTERNAL') rt.log?.('MCP body could not be read', err);
    await sendFailure(req, reply, se);
    return undefined;
  }
}

/** One message answered by a server and transport made for this request alone, then both closed. */
async function answer(
  rt: Runtime,
  actions: readonly AnyAction[],
  { req, reply, body }: { req: FastifyRequest; reply: FastifyReply; body: McpBody },
) {
  // No elicitation: a stateless server cannot ask the person and hear back (see McpServerOptions).
  const server = createMcpServer(
    rt,
    actions,
    req.caller ? { caller: req.caller } : { token: bearerToken(req.headers.authorization) },
    { elicitation: false, uploads: body.uploads },
  );
  // JSON responses rather than an SSE stream: every tool answers once, and there is no session to stream to.
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
    // Files the call kept were moved to the blob store; what is left of them here goes.
    for (const file of body.staged) void rt.files.discard(file);
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, body.message);
  } catch (err) {
    rt.log?.('MCP over HTTP failed', err);
    if (!reply.raw.headersSent) {
      reply.raw.writeHead(500, { 'content-type': 'application/json' });
      reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
    }
  }
}

/** Stateless: there is no server-to-client stream to open (GET) and no session to end (DELETE). */
const notAllowed = async (req: FastifyRequest, reply: FastifyReply) =>
  reply
    .code(405)
    .header('allow', 'POST')
    .type('application/problem+json')
    .send(
      problemBody(
        new ServiceError(
          'METHOD_NOT_ALLOWED',
          'This MCP endpoint is stateless: send JSON-RPC messages with POST; there is no stream or session to open or close.',
        ),
        req.id,
      ),
    );

/** Names this server answers to: loopback, the configured host, and the public base URL's host. */
function allowedHostnames(config: Config): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
  if (config.host && config.host !== '0.0.0.0' && config.host !== '::') names.add(config.host.toLowerCase());
  try {
    names.add(new URL(config.baseUrl).hostname.toLowerCase());
  } catch {
    // an unparsable base URL adds nothing
  }
  return names;
}

/** This server's own origin (its base URL, with the port it listens on when that was 0) and the configured ones. */
function originsOf(config: Config, address: ReturnType<FastifyInstance['server']['address']>): Set<string> {
  const own = new URL(config.baseUrl);
  if (own.port === '0' && typeof address === 'object' && address) own.port = String(address.port);
  return new Set([own.origin, ...config.allowedOrigins]);
}

/** Why the request's Host or Origin is refused, or undefined when both name this server. */
function originRefusal(req: FastifyRequest, hosts: Set<string>, origins: Set<string>): string | undefined {
  const host = req.headers.host;
  const hostname = host ? hostnameOf(`http://${host}`) : undefined;
  if (!hostname || !hosts.has(hostname))
    return `The Host header (${host ?? 'none'}) does not name this server; MCP requests must be addressed to it directly.`;
  const origin = req.headers.origin;
  if (
    origin !== undefined &&
    !origins.has(originOf(origin)) &&
    originOf(origin) !== originOf(`${req.protocol}://${host}`)
  )
    return `Requests from the web origin ${origin} are not accepted by this MCP endpoint; only this server's own origin and those in STUDIO_ALLOWED_ORIGINS are.`;
  return undefined;
}

/** An Origin header as URL normalises it (`null` for anything that is not one). */
function originOf(origin: string): string {
  return URL.canParse(origin) ? new URL(origin).origin : 'null';
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
