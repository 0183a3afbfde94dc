import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import { findClient } from '../../domain/oauth/clients.js';
import { InvalidClientError, InvalidRequestError, UnsupportedGrantTypeError } from '../../domain/oauth/errors.js';
import { exchangeCode, optionalParam, refreshTokens, requiredParam, revokeByToken } from '../../domain/oauth/tokens.js';
import { CORS_HEADERS, type FormBody, formBody, isForm, NO_STORE, oauthErrorHandler } from './responses.js';

const TOKEN_BODY_LIMIT = 16 * 1024;

/**
 * The client of a token or revocation request. Every client here is public (token_endpoint_auth_method `none`): it
 * names itself with `client_id` and sends no secret; a request that tries to authenticate (HTTP Basic or a
 * client_secret) is refused rather than half-trusted.
 */
async function publicClient(rt: Runtime, req: FastifyRequest, body: FormBody): Promise<string> {
  if (req.headers.authorization !== undefined || optionalParam(body, 'client_secret') !== undefined)
    throw new InvalidClientError(
      'This server issues no client secrets: send client_id in the body, and no Authorization header or client_secret.',
    );
  const clientId = requiredParam(body, 'client_id');
  if (!(await findClient(rt.store, clientId)))
    throw new InvalidClientError('No client is registered with this client_id; register it at /register.');
  return clientId;
}

function form(req: FastifyRequest): FormBody {
  if (!isForm(req))
    throw new InvalidRequestError('Send the request body as application/x-www-form-urlencoded (RFC 6749 §4.1.3).');
  return formBody(req);
}

/**
 * `POST /token` (authorization_code with PKCE, refresh_token with rotation) and `POST /revoke` (RFC 7009), as fastify
 * routes in OAuth's own terms: form bodies in, JSON out, `Cache-Control: no-store`, and every refusal a standard OAuth
 * error (`invalid_request`, `invalid_client`, `invalid_grant`, `invalid_scope`, `invalid_target`,
 * `unsupported_grant_type`).
 */
export function registerToken(app: FastifyInstance, rt: Runtime) {
  const errorHandler = oauthErrorHandler(rt.log);

  app.post('/token', { bodyLimit: TOKEN_BODY_LIMIT, errorHandler }, async (req, reply) => {
    const body = form(req);
    const clientId = await publicClient(rt, req, body);
    const grantType = requiredParam(body, 'grant_type');
    const tokens =
      grantType === 'authorization_code'
        ? await exchangeCode(rt.store, rt.config, {
            clientId,
            code: requiredParam(body, 'code'),
            verifier: optionalParam(body, 'code_verifier'),
            redirectUri: optionalParam(body, 'redirect_uri'),
            resource: optionalParam(body, 'resource'),
          })
        : grantType === 'refresh_token'
          ? await refreshTokens(rt.store, rt.config, {
              clientId,
              refreshToken: requiredParam(body, 'refresh_token'),
              scope: optionalParam(body, 'scope'),
              resource: optionalParam(body, 'resource'),
            })
          : undefined;
    if (!tokens)
      throw new UnsupportedGrantTypeError(
        'grant_type must be authorization_code or refresh_token; this server offers no other grant.',
      );
    return reply.headers({ ...CORS_HEADERS, ...NO_STORE }).send(tokens);
  });

  app.post('/revoke', { bodyLimit: TOKEN_BODY_LIMIT, errorHandler }, async (req, reply) => {
    const body = form(req);
    const clientId = await publicClient(rt, req, body);
    await revokeByToken(rt.store, clientId, requiredParam(body, 'token'));
    // RFC 7009 §2.2: 200 whether or not there was anything to revoke.
    return reply
      .headers({ ...CORS_HEADERS, ...NO_STORE })
      .code(200)
      .send();
  });
}
