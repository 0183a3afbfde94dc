/**
 * Low holes (issue 29, item 7): a line's link takes only web addresses, and the sign-in page is not broken by a crafted
 * link nor taken from nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { currentEtag, http } from '../helpers/clients.js';
import { expectProblem } from '../helpers/e2e.js';
import { getPage, type PageVisit, postForm } from '../members/page-client.js';

let app: TestApp;
let line: any;
beforeAll(async () => {
  app = await createTestApp();
  line = (await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?limit=1`, { token: app.token })).body
    .items[0];
});
afterAll(async () => app?.close());

describe("a line's url", () => {
  const itemPath = () => `/v1/projects/${app.projectId}/items/${line.id}`;
  const patch = async (url: string) =>
    http(app.url, 'PATCH', itemPath(), {
      token: app.token,
      body: { url },
      headers: { 'if-match': await currentEtag(app.url, app.token, itemPath()) },
    });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '//attacker.example/x',
    'https://exa mple.com',
  ])('%j is refused on update and on creation', async (url) => {
    const updated = await patch(url);
    expectProblem(updated, 400, 'VALIDATION_FAILED');
    expect(updated.body.detail).toMatch(/http:\/\/ or https:\/\//);
    const created = await http(app.url, 'POST', `/v1/projects/${app.projectId}/items`, {
      token: app.token,
      body: { sectionId: line.sectionId, heading: 'Linen sofa', url },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expectProblem(created, 400, 'VALIDATION_FAILED');
    const now = (await http(app.url, 'GET', itemPath(), { token: app.token })).body;
    expect(now.url).not.toBe(url);
  });

  it('an http or https address is kept, and null clears it', async () => {
    for (const url of ['https://example.com/sofa?colour=linen#top', 'http://example.com/sofa', null]) {
      const res = url === null ? await patchNull() : await patch(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.url).toBe(url);
    }
  });
  const patchNull = async () =>
    http(app.url, 'PATCH', itemPath(), {
      token: app.token,
      body: { url: null },
      headers: { 'if-match': await currentEtag(app.url, app.token, itemPath()) },
    });
});

describe('signing in with a crafted next', () => {
  const signIn = async (next: string) => {
    const page = await getPage(`${app.url}/login`);
    return postForm(
      `${app.url}/login`,
      { form_token: page.formToken!, email: 'alex@hartley-rowe.example', password: app.ownerPassword, next },
      page.cookies,
    );
  };
  const signedIn = (res: PageVisit) => res.setCookies.some((c) => /^studio_session=[^;]+/.test(c));

  it.each([
    ['/日本', '/%E6%97%A5%E6%9C%AC'],
    ['/authorize?state=café', '/authorize?state=caf%C3%A9'],
    ['/a%20b?x=%E6%97%A5', '/a%20b?x=%E6%97%A5'],
    ['/🛋', '/%F0%9F%9B%8B'],
  ])('%j signs in and goes there, percent-encoded', async (next, location) => {
    const res = await signIn(next);
    expect(res.status, res.html.slice(0, 300)).toBe(303);
    expect(res.location).toBe(location);
    expect(signedIn(res)).toBe(true);
  });

  it('a next that names another site still signs in, and stays here', async () => {
    for (const next of ['//attacker.example/日本', 'https://attacker.example/', '/\\attacker.example']) {
      const res = await signIn(next);
      expect(res.status, next).toBe(303);
      expect(res.location, next).toBe('/login');
      expect(signedIn(res)).toBe(true);
    }
  });

  it('the sign-in page keeps a non-Latin-1 next in its form', async () => {
    const page = await getPage(`${app.url}/login?next=${encodeURIComponent('/日本')}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('name="next" value="/%E6%97%A5%E6%9C%AC"');
  });
});

describe('a sign-in form posted with neither Origin nor Referer', () => {
  const post = async (headers: Record<string, string>) => {
    const page = await getPage(`${app.url}/login`);
    const cookie = [...page.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${app.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
      body: new URLSearchParams({
        form_token: page.formToken!,
        email: 'alex@hartley-rowe.example',
        password: app.ownerPassword,
      }),
      redirect: 'manual',
    });
    return {
      status: res.status,
      html: await res.text(),
      session: /studio_session=[^;]+/.test(res.headers.get('set-cookie') ?? ''),
    };
  };

  it('is refused with 403 and signs nobody in, as the consent form refuses it', async () => {
    const res = await post({});
    expect(res.status).toBe(403);
    expect(res.html).toContain('did not say where it was sent from');
    expect(res.session).toBe(false);
  });

  it('is taken with this server as its Origin, or as its Referer when no Origin is sent', async () => {
    for (const headers of [{ origin: app.url }, { referer: `${app.url}/login` }] as Array<Record<string, string>>) {
      const res = await post(headers);
      expect(res.status, JSON.stringify(headers)).toBe(303);
      expect(res.session).toBe(true);
    }
  });

  it('signing out without either is refused too', async () => {
    const page = await getPage(`${app.url}/login`);
    const done = await postForm(
      `${app.url}/login`,
      { form_token: page.formToken!, email: 'alex@hartley-rowe.example', password: app.ownerPassword },
      page.cookies,
    );
    expect(done.status).toBe(303);
    const account = await getPage(`${app.url}/login`, done.cookies);
    expect(account.html).toContain('Signed in as');
    const out = await postForm(`${app.url}/logout`, { form_token: account.formToken! }, account.cookies, {
      origin: null,
    });
    expect(out.status).toBe(403);
    expect((await getPage(`${app.url}/login`, account.cookies)).html).toContain('Signed in as');
  });
});
