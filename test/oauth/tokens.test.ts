/**
 * Tokens over plain HTTP and the MCP SDK client, on both stores: the code exchange (PKCE, single use, redirect URI,
 * resource, client), tokens acting for their member in the studio chosen and never beyond the role or the scopes
 * allowed, refresh rotation and reuse detection, revocation, expiry, the audience, and a removed member: each refusal
 * with its standard error, and 401 at /mcp once a token no longer works.
 */
import { describe, expect, it } from 'vitest';
import { callAction, callTool } from '../helpers/calls.js';
import { httpMcp } from '../helpers/e2e.js';
import { fromOutside, memberWithToken } from '../helpers/fixtures.js';
import type { TestApp } from '../helpers/in-process.js';
import {
  codeFor,
  exchangeCode,
  expectOAuthError,
  givePassword,
  OWNER,
  newClient,
  pkce,
  refreshGrant,
  tokenRequest,
  tokensFor,
  openOAuthTestApp,
} from './oauth-http.js';

let app: TestApp;
let base: string;

openOAuthTestApp((opened) => {
  app = opened;
  base = opened.url;
});

/** tools/list at /mcp with a bearer token: its HTTP status, and the WWW-Authenticate of a refusal. */
async function mcpStatus(token: string) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await res.text();
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
}

describe('the code exchange', () => {
  it('answers tokens that act for the member in the studio chosen, recorded as oauth in the audit feed', async () => {
    const x = await codeFor(base, OWNER);
    expect(x.back.searchParams.get('state')).toBe(x.state);
    expect(x.back.searchParams.get('iss')).toBe(base);
    const res = await exchangeCode(base, x);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(res.json.access_token).toMatch(/^mcp_at_[A-Za-z0-9_-]{43}$/);
    expect(res.json.refresh_token).toMatch(/^mcp_rt_[A-Za-z0-9_-]{43}$/);
    expect(res.json.scope.split(' ')).toContain('studio:own');

    const mcp = await httpMcp(base, res.json.access_token);
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name)).toContain('call_action');
      const me = await callAction(mcp.client, 'get_current_user', {});
      expect(me.result.email).toBe(OWNER.email);
      expect(me.result.studio.name).toBe('Hartley & Rowe Interiors');
      const made = await callAction(mcp.client, 'create_supplier', {
        name: 'Made over OAuth',
        commandKey: crypto.randomUUID(),
      });
      expect(made.result.name).toBe('Made over OAuth');
      const feed = await callAction(mcp.client, 'list_studio_audit_events', { limit: 5 });
      const supplierEvent = feed.result.items.find((e: any) => e.target.kind === 'supplier');
      expect(supplierEvent.actor).toMatchObject({ kind: 'member', via: 'oauth', name: 'Alex Hartley' });
      const connected = await callAction(mcp.client, 'list_studio_audit_events', { targetKind: 'oauth_connection' });
      expect(connected.result.items[0]).toMatchObject({ action: 'oauth_consent', actor: { via: 'oauth' } });
      expect(connected.result.items[0].summary).toContain('Test client');
    } finally {
      await mcp.close();
    }
    // The same OAuth token is no credential for the REST or procedure APIs: its audience is /mcp.
    const rest = await fetch(`${base}/v1/projects`, { headers: { authorization: `Bearer ${res.json.access_token}` } });
    expect(rest.status).toBe(401);
    expect(((await rest.json()) as any).detail).toContain('works only at');
  });

  it('refuses a wrong PKCE verifier, and the code is spent by that attempt', async () => {
    const x = await codeFor(base, OWNER);
    expectOAuthError(await exchangeCode(base, x, { code_verifier: pkce().verifier }), 400, 'invalid_grant');
    expectOAuthError(await exchangeCode(base, x), 400, 'invalid_grant');
  });

  it('refuses a reused code and ends the connection its first exchange made', async () => {
    const x = await codeFor(base, OWNER);
    const first = await exchangeCode(base, x);
    expect(first.status).toBe(200);
    expect((await mcpStatus(first.json.access_token)).status).toBe(200);
    expectOAuthError(await exchangeCode(base, x), 400, 'invalid_grant');
    expect((await mcpStatus(first.json.access_token)).status).toBe(401);
    expectOAuthError(await refreshGrant(base, x.clientId, first.json.refresh_token), 400, 'invalid_grant');
  });

  it('refuses another redirect URI, another resource, another client, a malformed request', async () => {
    const x = await codeFor(base, OWNER);
    expectOAuthError(
      await exchangeCode(base, x, { redirect_uri: 'http://127.0.0.1:8976/elsewhere' }),
      400,
      'invalid_grant',
    );
    const y = await codeFor(base, OWNER);
    expectOAuthError(await exchangeCode(base, y, { resource: 'https://other.example/mcp' }), 400, 'invalid_target');
    const z = await codeFor(base, OWNER);
    const otherClient = await newClient(base);
    expectOAuthError(await exchangeCode(base, { ...z, clientId: otherClient }), 400, 'invalid_grant');
    expectOAuthError(await exchangeCode(base, { ...z, clientId: 'nobody' }), 401, 'invalid_client');
    expectOAuthError(await exchangeCode(base, z, { client_secret: 'guess' }), 401, 'invalid_client');
    expectOAuthError(
      await tokenRequest(
        base,
        { grant_type: 'authorization_code', client_id: z.clientId, code: z.code, code_verifier: z.verifier },
        { authorization: 'Basic eDp5' },
      ),
      401,
      'invalid_client',
    );
    expectOAuthError(await exchangeCode(base, z, { grant_type: 'password' }), 400, 'unsupported_grant_type');
    expectOAuthError(await tokenRequest(base, { client_id: z.clientId }), 400, 'invalid_request');
    const json = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', client_id: z.clientId }),
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as any).error).toBe('invalid_request');
    const twice = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&grant_type=refresh_token&client_id=${z.clientId}`,
    });
    expect(((await twice.json()) as any).error).toBe('invalid_request');
    // After all those, the code itself is still good: none of them reached it.
    expect((await exchangeCode(base, z)).status).toBe(200);
    // An attempt without code_verifier does reach it, and spends it (test/attack/oauth-holes.test.ts).
    const w = await codeFor(base, OWNER);
    expectOAuthError(await exchangeCode(base, w, { code_verifier: '' }), 400, 'invalid_request');
    expectOAuthError(await exchangeCode(base, w), 400, 'invalid_grant');
  });

  it('refuses an expired code', async () => {
    const x = await codeFor(base, OWNER);
    await fromOutside(app.database, (db) =>
      db
        .updateTable('oauth_codes')
        .set({ expires_at: '2000-01-01T00:00:00.000Z' })
        .where('used_at', 'is', null)
        .execute(),
    );
    expectOAuthError(await exchangeCode(base, x), 400, 'invalid_grant');
  });
});

describe('refresh tokens', () => {
  it('rotate: each refresh answers a new pair and spends the old refresh token', async () => {
    const t = await tokensFor(base, OWNER);
    const r1 = await refreshGrant(base, t.clientId, t.refresh_token, { resource: `${base}/mcp` });
    expect(r1.status, r1.text).toBe(200);
    expect(r1.json.refresh_token).not.toBe(t.refresh_token);
    expect(r1.json.access_token).not.toBe(t.access_token);
    expect((await mcpStatus(r1.json.access_token)).status).toBe(200);
    // An access token stays good until it expires; the rotation only spends the refresh token.
    expect((await mcpStatus(t.access_token)).status).toBe(200);
    const r2 = await refreshGrant(base, t.clientId, r1.json.refresh_token);
    expect(r2.status).toBe(200);
    expectOAuthError(
      await refreshGrant(base, t.clientId, r2.json.refresh_token, { resource: 'https://other.example/mcp' }),
      400,
      'invalid_target',
    );
    expectOAuthError(await refreshGrant(base, await newClient(base), r2.json.refresh_token), 400, 'invalid_grant');
    expectOAuthError(await refreshGrant(base, t.clientId, 'mcp_rt_unknown'), 400, 'invalid_grant');
  });

  it('a spent refresh token presented again revokes the whole connection', async () => {
    const t = await tokensFor(base, OWNER);
    const r1 = await refreshGrant(base, t.clientId, t.refresh_token);
    expect(r1.status).toBe(200);
    const reused = await refreshGrant(base, t.clientId, t.refresh_token);
    expectOAuthError(reused, 400, 'invalid_grant');
    expect(reused.json.error_description).toContain('already used');
    // Every token of the connection ends: the thief's and the client's.
    expect((await mcpStatus(r1.json.access_token)).status).toBe(401);
    expect((await mcpStatus(t.access_token)).status).toBe(401);
    expectOAuthError(await refreshGrant(base, t.clientId, r1.json.refresh_token), 400, 'invalid_grant');
    const ended = await callAction(await app.mcp(), 'list_studio_audit_events', {
      targetKind: 'oauth_connection',
      limit: 1,
    });
    expect(ended.result.items[0]).toMatchObject({ action: 'oauth_revocation', actor: { kind: 'system' } });
    expect(ended.result.items[0].summary).toContain('already spent');
  });

  it('may ask for fewer scopes than allowed, never more', async () => {
    const t = await tokensFor(base, { ...OWNER, scopes: ['projects:read', 'documents:read'] });
    expect(t.scope).toBe('projects:read documents:read');
    const narrower = await refreshGrant(base, t.clientId, t.refresh_token, { scope: 'projects:read' });
    expect(narrower.json.scope).toBe('projects:read');
    expectOAuthError(
      await refreshGrant(base, t.clientId, narrower.json.refresh_token, { scope: 'projects:read pricing:read' }),
      400,
      'invalid_scope',
    );
  });
});

describe('what a token may do', () => {
  it('never more than the role, nor than the scopes allowed; self only with the whole role', async () => {
    const designer = await memberWithToken(app.database, 'designer');
    const email = await fromOutside(
      app.database,
      async (db) =>
        (await db.selectFrom('users').select('email').where('id', '=', designer.userId).executeTakeFirstOrThrow())
          .email,
    );
    await givePassword(app.database, email, 'designer-password-1');
    const all = await tokensFor(base, { email, password: 'designer-password-1' });
    expect(all.scope.split(' ')).toContain('self');
    expect(all.scope.split(' ')).not.toContain('workspace:manage');
    const mcp = await httpMcp(base, all.access_token);
    try {
      const rename = await callAction(mcp.client, 'update_studio', { name: 'Taken over', expectedVersion: 1 });
      expect(rename.code).toBe('FORBIDDEN');
      expect(rename.error?.message ?? JSON.stringify(rename.error)).toContain('your role (designer)');
    } finally {
      await mcp.close();
    }

    const narrow = await tokensFor(base, { ...OWNER, scopes: ['projects:read', 'self'] });
    expect(narrow.scope).toBe('projects:read');
    const line = await fromOutside(app.database, (db) =>
      db.selectFrom('lines').select(['id', 'project_id']).where('trade_state', '=', 'set').executeTakeFirstOrThrow(),
    );
    const client = await httpMcp(base, narrow.access_token);
    try {
      const got = await callTool(client.client, 'get_line', { projectId: line.project_id, itemId: line.id });
      expect(got.result, JSON.stringify(got)).toBeDefined();
      expect(JSON.stringify(got.result)).not.toContain('tradePrice');
      const me = await callAction(client.client, 'get_current_user', {});
      expect(me.code).toBe('FORBIDDEN');
      expect(JSON.stringify(me.error)).toContain('OAuth connection');
      const supplier = await callAction(client.client, 'create_supplier', {
        name: 'Nope',
        commandKey: crypto.randomUUID(),
      });
      expect(supplier.code).toBe('FORBIDDEN');
      expect(JSON.stringify(supplier.error)).toContain('connect the MCP client again');
    } finally {
      await client.close();
    }
  });

  it('an API token keeps working at /mcp beside OAuth', async () => {
    expect((await mcpStatus(app.token)).status).toBe(200);
  });
});

describe('a token that no longer works answers 401 at /mcp', () => {
  it('when it expired', async () => {
    const t = await tokensFor(base, OWNER);
    await fromOutside(app.database, (db) =>
      db
        .updateTable('oauth_access_tokens')
        .set({ expires_at: '2000-01-01T00:00:00.000Z' })
        .where('token_hash', 'is not', null)
        .execute(),
    );
    const res = await mcpStatus(t.access_token);
    expect(res.status).toBe(401);
    expect(res.challenge).toContain('error="invalid_token"');
    expect(res.challenge).toContain('resource_metadata=');
    // The refresh token still gets a fresh one.
    const r = await refreshGrant(base, t.clientId, t.refresh_token);
    expect((await mcpStatus(r.json.access_token)).status).toBe(200);
  });

  it('when its client revoked it (RFC 7009); revoking another client’s token or an unknown one changes nothing', async () => {
    const t = await tokensFor(base, OWNER);
    const revoke = (clientId: string, token: string) =>
      fetch(`${base}/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: clientId, token }).toString(),
      });
    expect((await revoke(await newClient(base), t.access_token)).status).toBe(200);
    expect((await mcpStatus(t.access_token)).status).toBe(200);
    expect((await revoke(t.clientId, 'mcp_rt_nothing')).status).toBe(200);
    expect((await revoke(t.clientId, t.refresh_token)).status).toBe(200);
    expect((await mcpStatus(t.access_token)).status).toBe(401);
    expectOAuthError(await refreshGrant(base, t.clientId, t.refresh_token), 400, 'invalid_grant');
  });

  it('when it was issued for another resource (the server moved to another address)', async () => {
    const t = await tokensFor(base, OWNER);
    await fromOutside(app.database, (db) =>
      db
        .updateTable('oauth_grants')
        .set({ resource: 'https://old.example/mcp' })
        .where('revoked_at', 'is', null)
        .execute(),
    );
    expect((await mcpStatus(t.access_token)).status).toBe(401);
    expectOAuthError(
      await refreshGrant(base, t.clientId, t.refresh_token, { resource: `${base}/mcp` }),
      400,
      'invalid_target',
    );
  });

  it('when its member is removed from the studio, at the next request, refresh included', async () => {
    const viewer = await memberWithToken(app.database, 'viewer');
    const email = await fromOutside(
      app.database,
      async (db) =>
        (await db.selectFrom('users').select('email').where('id', '=', viewer.userId).executeTakeFirstOrThrow()).email,
    );
    await givePassword(app.database, email, 'viewer-password-1');
    const t = await tokensFor(base, { email, password: 'viewer-password-1' });
    expect((await mcpStatus(t.access_token)).status).toBe(200);
    // The owner removes the member as a person would (remove_studio_member): the connection ends with the membership.
    const removed = await callAction(await app.mcp(), 'remove_studio_member', {
      memberId: viewer.memberId,
      confirm: true,
    });
    expect(removed.error).toBeUndefined();
    const grants = await fromOutside(app.database, (db) =>
      db.selectFrom('oauth_grants').select('revoked_reason').where('member_id', '=', viewer.memberId).execute(),
    );
    expect(grants.map((g) => g.revoked_reason)).toEqual(['member_removed']);
    expect((await mcpStatus(t.access_token)).status).toBe(401);
    expectOAuthError(await refreshGrant(base, t.clientId, t.refresh_token), 400, 'invalid_grant');
  });
});
