/**
 * The account pages in a real headless Chromium (npm's, through playwright-core): an invitation's page filled and
 * submitted by a new person, who lands signed in; the sign-in page with the demo owner's printed password; the
 * session cookie's flags; a form without its token, or posted from another origin, refused with nothing done; a
 * wrong password answered exactly as an unknown address; and the throttle locking an address after five failures.
 * The pages allow no script, so none runs (a CSP violation would show as a console error).
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/domain/people/passwords.js';
import { FAILURES_BEFORE_LOCK } from '../../src/domain/people/sign-in.js';
import { launchBrowser } from '../helpers/browser.js';
import type { Trpc } from '../helpers/clients.js';
import { demoMembers, fromOutside } from '../helpers/fixtures.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
let browser: Browser;

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh browser profile; console errors (a CSP violation is one) are collected, but for the pages' own statuses. */
async function fresh(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  return { context, page, errors };
}

const problemText = (page: Page) => page.getByRole('alert').textContent();

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/login') && r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  await page.waitForLoadState();
  return response;
}

describe("an invitation's page", () => {
  it('lets a new person set their name and password and join; they land signed in, by a safe cookie', async () => {
    const inv = await owner.invitations.createInvitation.mutate({
      email: 'robin@example.com',
      role: 'assistant',
      commandKey: randomUUID(),
    });
    const { context, page, errors } = await fresh();
    const opened = await page.goto(inv.url!);
    expect(opened!.status()).toBe(200);
    const csp = opened!.headers()['content-security-policy']!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(opened!.headers()['referrer-policy']).toBe('same-origin');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Join Hartley & Rowe Interiors');
    expect(await page.locator('main').textContent()).toContain('robin@example.com');

    await page.getByLabel('Your name').fill('Robin Ames');
    await page.getByLabel('Choose a password').fill('a long new password');
    await page.getByLabel('The same password again').fill('a different password');
    await page.getByRole('button', { name: /^Join/ }).click();
    await page.waitForLoadState();
    expect(await problemText(page)).toContain('not the same');
    expect(await page.getByLabel('Your name').inputValue()).toBe('Robin Ames');

    await page.getByLabel('Choose a password').fill('a long new password');
    await page.getByLabel('The same password again').fill('a long new password');
    await page.getByRole('button', { name: /^Join/ }).click();
    await page.waitForURL(`${app.url}/login`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Signed in as Robin Ames');
    expect(await page.locator('.studios').textContent()).toContain('Hartley & Rowe Interiors (assistant)');

    const cookies = await context.cookies(app.url);
    const session = cookies.find((c) => c.name === 'studio_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    expect(session.value).toMatch(/^session_[\w-]{43}$/);
    expect(session.expires).toBeGreaterThan(Date.now() / 1000);
    expect(cookies.map((c) => c.name)).not.toContain('studio_form');
    // The session is kept only as a digest.
    const stored = await fromOutside(app.database, (db) => db.selectFrom('sessions').select('token_hash').execute());
    expect(JSON.stringify(stored)).not.toContain(session.value);

    const members = await owner.members.listStudioMembers.query({ q: 'robin@example.com' });
    expect(members.items[0]).toMatchObject({ name: 'Robin Ames', role: 'assistant' });
    // The link is used: opened again, the one refusal.
    const again = await page.goto(inv.url!);
    expect(again!.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This invitation cannot be used');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the sign-in page', () => {
  it('signs the demo owner in with the printed password, and out again', async () => {
    const { context, page, errors } = await fresh();
    await page.goto(`${app.url}/login`);
    const response = await signIn(page, 'Alex@Hartley-Rowe.example', app.ownerPassword);
    expect(response.status()).toBe(303);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Signed in as Alex Hartley');
    const session = (await context.cookies(app.url)).find((c) => c.name === 'studio_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    expect((await context.cookies(app.url)).map((c) => c.name)).not.toContain('studio_session');
    // The old cookie names nothing any more.
    const replayed = await context.request.get(`${app.url}/login`, {
      headers: { cookie: `studio_session=${session.value}` },
    });
    expect(await replayed.text()).not.toContain('Signed in as');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses a form without its token, and one posted from another origin; nothing is signed in', async () => {
    const { context, page } = await fresh();
    await page.goto(`${app.url}/login`);
    await page.locator('input[name="form_token"]').evaluate((el) => el.remove());
    const response = await signIn(page, 'alex@hartley-rowe.example', app.ownerPassword);
    expect(response.status()).toBe(403);
    expect(await problemText(page)).toContain('did not come from this page');
    expect((await context.cookies(app.url)).map((c) => c.name)).not.toContain('studio_session');

    // With the right token and cookie, but sent from another site's page: refused too.
    const token = await page.locator('input[name="form_token"]').getAttribute('value');
    const forged = await context.request.post(`${app.url}/login`, {
      form: { form_token: token!, email: 'alex@hartley-rowe.example', password: app.ownerPassword },
      headers: { origin: 'http://attacker.example' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('sent from another site');
    expect((await context.cookies(app.url)).map((c) => c.name)).not.toContain('studio_session');
    await context.close();
  });

  it('answers a wrong password exactly as an unknown address, and locks the address after five failures', async () => {
    const { viewer } = await demoMembers(app, ['viewer']);
    const email = await fromOutside(app.database, async (db) => {
      const u = await db.selectFrom('users').select('email').where('id', '=', viewer.userId).executeTakeFirstOrThrow();
      await db
        .updateTable('users')
        .set({ password_hash: await hashPassword('the right password') })
        .where('id', '=', viewer.userId)
        .execute();
      return u.email;
    });
    const { context, page } = await fresh();
    await page.goto(`${app.url}/login`);
    const unknown = await signIn(page, 'nobody@example.com', 'some password');
    const unknownText = await problemText(page);
    expect(unknown.status()).toBe(401);
    for (let i = 1; i <= FAILURES_BEFORE_LOCK; i++) {
      const wrong = await signIn(page, email, `wrong password ${i}`);
      expect(wrong.status()).toBe(401);
      expect(await problemText(page)).toBe(unknownText);
    }
    const locked = await signIn(page, email, 'the right password');
    expect(locked.status()).toBe(429);
    expect(Number(locked.headers()['retry-after'])).toBeGreaterThan(0);
    expect(await problemText(page)).toContain('Too many attempts');
    expect((await context.cookies(app.url)).map((c) => c.name)).not.toContain('studio_session');
    await context.close();
  });
});
