/**
 * OAuth holes (issue 29, item 7): any attempt with an authorization code spends it, a code whose authorization named a
 * redirect_uri is exchanged only with that redirect_uri (RFC 6749 §4.1.3), and a refresh for an address the server no
 * longer answers at is refused rather than answered with an access token /mcp would never take.
 */
import { describe, expect, it } from 'vitest';
import { fromOutside } from '../helpers/fixtures.js';
import type { TestApp } from '../helpers/in-process.js';
import {
  codeFor,
  exchangeCode,
  expectOAuthError,
  OWNER,
  openOAuthTestApp,
  refreshGrant,
  tokensFor,
} from '../oauth/oauth-http.js';

let app: TestApp;
let base: string;
openOAuthTestApp((opened) => {
  app = opened;
  base = opened.url;
});

describe('a code exchanged without code_verifier', () => {
  it.each([
    ['left out', undefined],
    ['empty', ''],
  ])('%s: refused, and the code is spent by that attempt', async (_, verifier) => {
    const x = await codeFor(base, OWNER);
    const res = await exchangeCode(base, x, { code_verifier: verifier });
    expectOAuthError(res, 400, 'invalid_request');
    expect(res.json.error_description).toContain('code_verifier');
    const again = await exchangeCode(base, x, {});
    expectOAuthError(again, 400, 'invalid_grant');
  });
});

describe('redirect_uri at /token', () => {
  it('is required when the authorization named one, and the code is spent by the attempt without it', async () => {
    const x = await codeFor(base, OWNER);
    const res = await exchangeCode(base, x, { redirect_uri: undefined });
    expectOAuthError(res, 400, 'invalid_grant');
    expect(res.json.error_description).toContain('redirect_uri');
    expectOAuthError(await exchangeCode(base, x, {}), 400, 'invalid_grant');
  });

  it('may be left out when the authorization left it out too, and must then match if sent', async () => {
    const left = await codeFor(base, OWNER, { redirect_uri: undefined } as unknown as Record<string, string>);
    const ok = await exchangeCode(base, left, { redirect_uri: undefined });
    expect(ok.status, ok.text).toBe(200);
    const sent = await codeFor(base, OWNER, { redirect_uri: undefined } as unknown as Record<string, string>);
    expect((await exchangeCode(base, sent, {})).status).toBe(200);
    const other = await codeFor(base, OWNER, { redirect_uri: undefined } as unknown as Record<string, string>);
    expectOAuthError(
      await exchangeCode(base, other, { redirect_uri: 'http://127.0.0.1:8976/elsewhere' }),
      400,
      'invalid_grant',
    );
  });
});

describe('a refresh after the base URL changed', () => {
  it('is refused with invalid_grant, not answered with an access token /mcp refuses', async () => {
    const t = await tokensFor(base, OWNER);
    await fromOutside(app.database, (db) =>
      db
        .updateTable('oauth_grants')
        .set({ resource: 'https://old.example/mcp' })
        .where('revoked_at', 'is', null)
        .execute(),
    );
    const res = await refreshGrant(base, t.clientId, t.refresh_token);
    expectOAuthError(res, 400, 'invalid_grant');
    expect(res.json.error_description).toMatch(/connect/i);
  });
});
