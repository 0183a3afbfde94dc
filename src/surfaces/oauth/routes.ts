import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import type { SignInLimits } from '../pages/sign-in-limits.js';
import { registerAuthorize } from './authorize.js';
import { registerMetadata } from './metadata.js';
import { registerRegistration } from './register.js';
import { CORS_HEADERS } from './responses.js';
import { registerToken } from './token.js';

/** A form body as fields: each once as a string, a repeated one as an array (so a duplicate can be refused). */
function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/**
 * OAuth 2.1 for HTTP MCP: this server is its own authorization server, and `/mcp` its protected resource (admission
 * answers a request there without a valid token 401 with `resource_metadata`). Mounted in a plugin of its own so the
 * form parser the token endpoint needs serves these routes only (elsewhere a form body stays 415).
 */
export async function registerOAuth(app: FastifyInstance, rt: Runtime, signIns: SignInLimits) {
  await app.register(async (oauth) => {
    oauth.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, parseForm(body as string)),
    );
    registerMetadata(oauth, rt.config);
    registerRegistration(oauth, rt);
    registerToken(oauth, rt);
    registerAuthorize(oauth, rt, signIns);
    // CORS preflights for the endpoints browser-based MCP clients call.
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-authorization-server/mcp',
      '/register',
      '/token',
      '/revoke',
    ])
      oauth.options(path, async (_req, reply) => reply.code(204).headers(CORS_HEADERS).send());
  });
}
