/**
 * The consent page (issue 29, item 7) offers only what the person's role can grant: a viewer is not shown sixteen
 * ticked permissions of which the connection could hold six.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../../src/core/permissions.js';
import { OAUTH_SCOPES } from '../../src/core/oauth-scopes.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import {
  authorizeUrl,
  formField,
  get,
  givePassword,
  newClient,
  pkce,
  postForm,
  scopesOffered,
  usual,
} from '../oauth/oauth-http.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => app?.close());

/** The consent page a person sees after signing in, for a client asking for every scope (it names none). */
async function consentPageFor(email: string, password: string) {
  const clientId = await newClient(app.url);
  const page = await get(authorizeUrl(app.url, usual(app.url, clientId, pkce().challenge)));
  expect(page.status, page.text).toBe(200);
  const shown = await postForm(app.url, '/authorize/sign-in', [
    ['form', formField(page.text)],
    ['email', email],
    ['password', password],
  ]);
  expect(shown.status, shown.text).toBe(200);
  return shown.text;
}

describe('the consent page', () => {
  it("shows a viewer only the viewer's permissions, not all sixteen", async () => {
    const viewer = await memberWithToken(app.database, 'viewer');
    const email = `viewer-${viewer.userId}@example.test`;
    await givePassword(app.database, email, 'viewer-password-2026');
    const html = await consentPageFor(email, 'viewer-password-2026');
    const offered = scopesOffered(html);
    expect(offered).toEqual(OAUTH_SCOPES.filter((s) => ROLE_PERMISSIONS.viewer.includes(s)));
    expect(offered).not.toContain('pricing:read');
    expect(offered).not.toContain('workspace:manage');
  });

  it('shows an owner every permission', async () => {
    const html = await consentPageFor('alex@hartley-rowe.example', app.ownerPassword);
    expect(scopesOffered(html)).toEqual([...OAUTH_SCOPES]);
  });
});
