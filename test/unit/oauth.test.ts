/** The pure parts of OAuth: redirect URIs, scopes and how a connection's permissions follow the role, S256. */
import { describe, expect, it } from 'vitest';
import { connectionPermissions, parseScope, scopeString } from '../../src/core/oauth-scopes.js';
import { ROLE_PERMISSIONS } from '../../src/core/permissions.js';
import { redirectUriMatches, redirectUriProblem } from '../../src/domain/oauth/redirect-uris.js';
import { namesMcpResource, resourceMetadataUrl } from '../../src/domain/oauth/urls.js';

describe('redirect URIs', () => {
  it('registers https, loopback http and native schemes; never script, local files or plain http elsewhere', () => {
    for (const ok of [
      'https://claude.ai/api/mcp/auth_callback',
      'http://127.0.0.1:33418/cb',
      'http://localhost/cb',
      'http://[::1]:9/cb',
      'com.example.app:/oauth',
      'cursor://anysphere.cursor-retrieval/oauth/callback',
    ])
      expect(redirectUriProblem(ok), ok).toBeUndefined();
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      'http://example.com/cb',
      'https://a.example/cb#x',
      'https://user:pw@a.example/cb',
      '/relative',
    ])
      expect(redirectUriProblem(bad), bad).toBeDefined();
  });

  it('match exactly, but for the port of a loopback one', () => {
    expect(redirectUriMatches('https://a.example/cb', 'https://a.example/cb')).toBe(true);
    expect(redirectUriMatches('https://a.example/cb/', 'https://a.example/cb')).toBe(false);
    expect(redirectUriMatches('https://a.example:8443/cb', 'https://a.example/cb')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:5000/cb', 'http://127.0.0.1:4000/cb')).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1:5000/cb', 'http://127.0.0.1/cb')).toBe(true);
    expect(redirectUriMatches('http://localhost:5000/cb', 'http://127.0.0.1:4000/cb')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:5000/other', 'http://127.0.0.1:4000/cb')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:5000/cb?a=1', 'http://127.0.0.1:4000/cb')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:5000/cb#f', 'http://127.0.0.1:4000/cb')).toBe(false);
  });
});

describe('scopes', () => {
  it('are the permission names; offline_access is dropped, anything else is unknown', () => {
    expect(parseScope('pricing:read projects:read offline_access')).toEqual({
      scopes: ['projects:read', 'pricing:read'],
      unknown: [],
    });
    expect(parseScope('openid projects:read').unknown).toEqual(['openid']);
    expect(parseScope(undefined)).toEqual({ scopes: [], unknown: [] });
  });

  it('give a connection only what the role has now, and self only with the whole role', () => {
    const all = [...ROLE_PERMISSIONS.owner];
    expect([...connectionPermissions(all, 'viewer')].sort()).toEqual([...ROLE_PERMISSIONS.viewer].sort());
    expect(connectionPermissions(all, 'assistant').has('pricing:read')).toBe(false);
    expect([...connectionPermissions(['projects:read', 'self'], 'viewer')]).toEqual(['projects:read']);
    const everyViewerScope = ROLE_PERMISSIONS.viewer;
    expect(connectionPermissions(everyViewerScope, 'viewer').has('self')).toBe(true);
    expect(connectionPermissions(everyViewerScope, 'admin').has('self')).toBe(false);
    expect(scopeString(connectionPermissions(['audit:read', 'projects:read'], 'designer'))).toBe(
      'projects:read audit:read',
    );
  });
});

describe('the MCP resource', () => {
  const config = { baseUrl: 'https://studio.example.com' };
  it('is <base>/mcp, its metadata at the RFC 9728 path', () => {
    expect(resourceMetadataUrl(config)).toBe('https://studio.example.com/.well-known/oauth-protected-resource/mcp');
    expect(namesMcpResource(config, 'https://studio.example.com/mcp')).toBe(true);
    expect(namesMcpResource(config, 'HTTPS://STUDIO.EXAMPLE.COM/mcp')).toBe(true);
    for (const other of [
      'https://studio.example.com',
      'https://studio.example.com/mcp/',
      'https://studio.example.com/mcp?x',
      'https://studio.example.com/mcp#f',
      'https://evil.example/mcp',
      'http://studio.example.com/mcp',
      'not a url',
    ])
      expect(namesMcpResource(config, other), other).toBe(false);
  });
});
