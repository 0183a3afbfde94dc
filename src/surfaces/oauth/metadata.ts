import type { FastifyInstance } from 'fastify';
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Config } from '../../config.js';
import { OAUTH_SCOPES } from '../../core/oauth-scopes.js';
import { issuer, mcpResource } from '../../domain/oauth/urls.js';
import { CORS_HEADERS } from './responses.js';

/**
 * Protected Resource Metadata (RFC 9728) for `/mcp`: this server is the resource and its own authorization server.
 * `scopes_supported` lists every scope: MCP clients ask for all of them by default, and the person narrows them on
 * the consent page (a connection never exceeds its member's role anyway).
 */
export function protectedResourceMetadata(config: Config): OAuthProtectedResourceMetadata {
  return {
    resource: mcpResource(config),
    authorization_servers: [issuer(config)],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Studio server (MCP)',
    resource_documentation: config.docsUrl,
  };
}

/**
 * Authorization Server Metadata (RFC 8414): dynamic registration of public clients, the code flow with PKCE S256
 * only, rotating refresh tokens, revocation, and `iss` in every authorization response (RFC 9207).
 */
export function authorizationServerMetadata(config: Config): OAuthMetadata {
  const base = issuer(config);
  return {
    issuer: base,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    revocation_endpoint: `${base}/revoke`,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: config.docsUrl,
  };
}

/**
 * The well-known paths, each also with the MCP endpoint's path appended: RFC 9728 places a resource's metadata at
 * `/.well-known/oauth-protected-resource/mcp` (what the 401 names), and clients that have only the MCP URL try the
 * path-suffixed and the root forms of both documents. OpenID Connect discovery is not served: there are no ID tokens.
 */
export function registerMetadata(app: FastifyInstance, config: Config) {
  const headers = { ...CORS_HEADERS, 'cache-control': 'public, max-age=300' };
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])
    app.get(path, async (_req, reply) => reply.headers(headers).send(protectedResourceMetadata(config)));
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/mcp'])
    app.get(path, async (_req, reply) => reply.headers(headers).send(authorizationServerMetadata(config)));
}
