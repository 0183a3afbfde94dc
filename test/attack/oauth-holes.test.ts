/**
 * OAuth holes (issue 29, item 7): any attempt with an authorization code spends it, a code whose authorization named a
 * redirect_uri is exchanged only with that redirect_uri (RFC 6749 §4.1.3), and a refresh for an address the server no
 * longer answers at is refused rather than answered with an access token /mcp would never take.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromOutside } from '../helpers/fixtures.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { codeFor, expectOAuthError, givePassword, REDIRECT, tokenRequest, tokensFor } from '../oauth/oauth-http.js';

let app: TestApp;
let base: string;
const OWNER = { email: 'alex@hartley-rowe.example', password: 'harbour-house-2026' };

beforeAll(async () => {
  app = await createTestApp();
  base = app.url;
  await givePassword(app.database, OWNER.email, OWNER.password);
});
afterAll(async () => app?.close());

const exchange = (
  x: { clientId: string; code: string; verifier: string },
  fields: Record<string, string | undefined>,
) =>
  tokenRequest(
    base,
    Object.fromEntries(
      Object.entries({
        grant_type: 'authorization_code',
        client_id: x.clientId,
        code: x.code,
        code_verifier: x.verifier,
        redirect_uri: REDIRECT,
        resource: `${base}/mcp`,
        ...fields,
      }).filter((e): e is [string, string] => e[1] !== undefined),
    ),
  );

describe('a code exchanged without code_verifier', () => {
  it.each([
    ['left out', undefined],
    ['empty', ''],
  ])('%s: refused, and the code is spent by that attempt', async (_, verifier) => {
    const x = await codeFor(base, OWNER);
    const res = await exchange(x, { code_verifier: verifier });
    expectOAuthError(res, 400, 'invalid_request');
    expect(res.json.error_description).toContain('code_verifier');
    const again = await exchange(x, {});
    expectOAuthError(again, 400, 'invalid_grant');
  });
});

describe('redirect_uri at /token', () => {
  it('is required when the authorization named one, and the code is spent by the attempt without it', async () => {
    const x = await codeFor(base, OWNER);
    const res = await exchange(x, { redirect_uri: undefined });
    expectOAuthError(res, 400, 'invalid_grant');
    expect(res.json.error_description).toContain('redirect_uri');
    expectOAuthError(await exchange(x, {}), 400, 'invalid_grant');
  });

  it('may be left out when the authorization left it out too, and must then match if sent', async () => {
    const left = await codeFor(base, OWNER, { redirect_uri: undefined } as unknown as Record<string, string>);
    const ok = await exchange(left, { redirect_uri: undefined });
    expect(ok.status, ok.text).toBe(200);
    const sent = await codeFor(base, OWNER, { redirect_uri: undefined } as unknown as Record<string, string>);
    expect((await exchange(sent, {})).status).toBe(200);
    const other = await codeFor(base, OWNER, { redirect_uri: undefined } as unknown as Record<string, string>);
    expectOAuthError(await exchange(other, { redirect_uri: 'http://127.0.0.1:8976/elsewhere' }), 400, 'invalid_grant');
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
    const res = await tokenRequest(base, {
      grant_type: 'refresh_token',
      client_id: t.clientId,
      refresh_token: t.refresh_token,
    });
    expectOAuthError(res, 400, 'invalid_grant');
    expect(res.json.error_description).toMatch(/connect/i);
  });
});
