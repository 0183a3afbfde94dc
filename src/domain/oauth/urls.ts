import type { Config } from '../../config.js';

/**
 * The addresses OAuth names, all from the public base URL (read at each use: a base URL naming port 0 settles on the
 * real port once the server listens). The server is its own authorization server, so the issuer is the base URL, and
 * the one protected resource is the MCP endpoint.
 */
export const issuer = (config: Pick<Config, 'baseUrl'>) => config.baseUrl;

/** The MCP endpoint's canonical URI (RFC 8707 §2, MCP "Canonical Server URI"): every access token's audience. */
export const mcpResource = (config: Pick<Config, 'baseUrl'>) => `${config.baseUrl}/mcp`;

/**
 * Where the MCP endpoint's Protected Resource Metadata is (RFC 9728 §3.1: the well-known segment goes between the
 * host and the resource's path), named in every 401 from `/mcp`.
 */
export const resourceMetadataUrl = (config: Pick<Config, 'baseUrl'>) =>
  `${new URL(config.baseUrl).origin}/.well-known/oauth-protected-resource${new URL(mcpResource(config)).pathname}`;

/**
 * Whether a `resource` parameter names the MCP endpoint: compared as URLs, so an upper-case scheme or host is the same
 * resource (the MCP specification asks for that robustness), while any other path, a query or a fragment is not.
 */
export function namesMcpResource(config: Pick<Config, 'baseUrl'>, resource: string): boolean {
  if (!URL.canParse(resource)) return false;
  const asked = new URL(resource);
  const ours = new URL(mcpResource(config));
  return (
    asked.origin === ours.origin &&
    asked.pathname === ours.pathname &&
    asked.search === '' &&
    !resource.includes('#') &&
    asked.username === '' &&
    asked.password === ''
  );
}
