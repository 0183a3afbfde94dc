import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  InvalidClientError,
  InvalidRequestError,
  OAuthError,
  ServerError,
  TooManyRequestsError,
} from '../../domain/oauth/errors.js';

/**
 * The authorization server's JSON endpoints (metadata, registration, token, revocation) answer any web origin: they
 * use no cookies, and browser-based MCP clients must reach them (as the MCP SDK's own routers allow).
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
  'access-control-max-age': '86400',
};

/** Token and registration answers carry secrets or fresh credentials: never cached (RFC 6749 §5.1). */
export const NO_STORE: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' };

function statusOf(e: OAuthError): number {
  if (e instanceof ServerError) return 500;
  if (e instanceof TooManyRequestsError) return 429;
  if (e instanceof InvalidClientError) return 401;
  return 400;
}

/** Any failure as an OAuth error response: `{ error, error_description }`, no stack trace, no internal message. */
export function asOAuthError(err: unknown): OAuthError {
  if (err instanceof OAuthError) return err;
  const code = (err as { code?: string } | null)?.code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new InvalidRequestError('The request body is larger than this endpoint accepts; send less.');
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP'))
    return new InvalidRequestError(
      'The body could not be read: send application/x-www-form-urlencoded to /token and /revoke, JSON to /register.',
    );
  return new ServerError('The server could not complete this request; try again in a moment.');
}

export function sendOAuthError(reply: FastifyReply, err: unknown) {
  const e = asOAuthError(err);
  return reply
    .code(statusOf(e))
    .headers({ ...CORS_HEADERS, ...NO_STORE })
    .type('application/json; charset=utf-8')
    .send(e.toResponseObject());
}

/** A route error handler for the JSON endpoints: every failure, fastify's own too, in OAuth's shape. */
export function oauthErrorHandler(log?: (msg: string, err?: unknown) => void) {
  return (err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const e = asOAuthError(err);
    if (e instanceof ServerError) log?.(`OAuth ${req.method} ${req.url.split('?')[0]} failed`, err);
    return sendOAuthError(reply, e);
  };
}

/** A form body (see routes.ts): each field once as a string, a repeated field as an array. */
export type FormBody = Record<string, string | string[] | undefined>;

export const formBody = (req: FastifyRequest): FormBody =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as FormBody) : {};

export const isForm = (req: FastifyRequest) =>
  (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
