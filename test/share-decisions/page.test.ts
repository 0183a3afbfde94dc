/**
 * The client's decision end to end, as a person makes it (issue 23): an estimate drafted from Harbour House's lines,
 * revision 1 issued, a decide link shared; in a real headless Chromium with JavaScript off (the page needs none), the
 * client asks for a code, reads it from the real SMTP server in this test, enters it (an HttpOnly, SameSite=Strict
 * session cookie), declines one piece and accepts the rest with the running total, confirms, and sees the decided
 * state; the estimate then reads partly_accepted with the exact totals. Screenshots at 390 and 1280 px; print hides
 * the forms; no trade figure anywhere on the page; the CSP allows forms to this server only.
 *
 * Screenshots go to a temporary folder, removed afterwards, or to STUDIO_SCREENSHOTS when set (kept, to look at).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/surfaces/share-page/format.js';
import { launchBrowser, VIEWPORTS } from '../helpers/browser.js';
import type { Trpc } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { leakForms } from '../helpers/leaks.js';
import { openMailServer, codeIn } from '../helpers/mail.js';
import { type DecideLink, decideLink, pricedLines } from './fixture.js';
import { addAmount4 } from '../helpers/money.js';

const mail = openMailServer();
let app: TestApp;
let owner: Trpc;
let browser: Browser;
let shots: string;
let link: DecideLink;
openTestApp((opened) => ({ app, owner } = opened), mail.env);
beforeAll(async () => {
  browser = await launchBrowser();
  shots = process.env.STUDIO_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'decision-page-'));
  mkdirSync(shots, { recursive: true });
  link = await decideLink(app, owner, 3);
  // The studio's own accent and mark: the estimate page wears them, as the share page of a schedule does.
  const settings = await owner.studio.getStudioSettings.query({});
  await owner.studio.updateStudioSettings.mutate({
    branding: { accentColour: '#2f5d50', logoText: 'H&R' },
    expectedVersion: settings.version,
  });
});
afterAll(async () => {
  await browser?.close();
  if (shots && !process.env.STUDIO_SCREENSHOTS) rmSync(shots, { recursive: true, force: true });
});

/** The trade prices of the lines the estimate offers, in every form a leak could take. */
async function tradeForms() {
  const ids = await pricedLines(owner, app.projectId, 3);
  const trade: bigint[] = [];
  for (const lineId of ids) {
    const line: any = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId });
    if (line.tradePrice?.amount4) trade.push(BigInt(line.tradePrice.amount4));
  }
  return leakForms(trade.filter((t) => t >= 10_000n));
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

describe('deciding on the page', () => {
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  it('shows the revision, and asks for a code before any decision', async () => {
    context = await browser.newContext({ viewport: VIEWPORTS.phone, javaScriptEnabled: false });
    page = await context.newPage();
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    const res = await page.goto(`${app.url}/s/${link.token}`);
    expect(res!.status()).toBe(200);
    expect(res!.headers()['content-security-policy']).toContain("form-action 'self'");
    expect(res!.headers()['content-security-policy']).not.toContain('script-src');
    await expect(page.locator('h1').textContent()).resolves.toBe('Harbour House: furniture');
    expect(await page.locator('.offer > li').count()).toBe(3);
    expect(await page.evaluate<string>(`getComputedStyle(document.querySelector('header')).backgroundColor`)).toBe(
      'rgb(47, 93, 80)',
    );
    expect(await page.locator('.monogram').textContent()).toBe('H&R');
    // A summary first, as on the share page: the pieces in words, nothing left to price, the total in weight.
    const summary = (await page.getByRole('region', { name: 'Summary' }).textContent())!;
    expect(summary).toMatch(/In this estimate\s*3 pieces/);
    expect(summary).toMatch(/To be confirmed\s*Nothing/);
    // Each piece's figures end at one right edge, the total among them.
    const rights = await page.evaluate<number[]>(
      `[...document.querySelector('.offer > li').querySelectorAll('.figures dd')].map((d) => Math.round(d.getBoundingClientRect().right))`,
    );
    expect(rights.length).toBeGreaterThan(3);
    expect(new Set(rights).size).toBe(1);
    expect(await page.locator('input[type=radio]').count()).toBe(0);
    await expect(page.getByText('a•••@harbour.example').count()).resolves.toBe(1);
    const html = await page.content();
    for (const form of await tradeForms()) expect(html, `trade figure ${form}`).not.toContain(form);
    await shoot(page, 'phone-1-revision');
  });

  it('emails a code, and the right code opens a 30-minute HttpOnly, SameSite=Strict session', async () => {
    const before = mail.received.length;
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await expect(page.getByText('We emailed a 6-digit code to a•••@harbour.example').count()).resolves.toBe(1);
    const code = codeIn(await mail.mailNumber(before + 1));
    await shoot(page, 'phone-2-code');
    await page.getByLabel('Code from the email').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/not the code emailed.*4 wrong tries left/);
    await page.getByLabel('Code from the email').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    const cookies = await context.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ name: 'studio_share_verified', httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookies[0]!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(await page.locator('input[type=radio]').count()).toBe(6);
  });

  it('declines one piece with the running total, confirms, and shows the decided state', async () => {
    await page.locator('input[type=radio][value=declined]').first().check();
    await page.getByRole('button', { name: 'Update the total' }).click();
    const accepted = { amount4: link.gross.slice(1).reduce(addAmount4, '0'), currency: 'GBP' };
    await expect(page.locator('.running').textContent()).resolves.toContain(formatMoney(accepted));
    await expect(page.locator('.running').textContent()).resolves.toContain('2 of 3 pieces');
    await page.getByLabel('Your name').fill('Ann Harbour');
    await page.getByLabel('A note to the studio (optional)').fill('Not the first one, thank you.');
    await shoot(page, 'phone-3-answers');
    await page.getByRole('button', { name: 'Review my decision' }).click();
    await expect(page.locator('h2#confirm').textContent()).resolves.toBe('Confirm your decision');
    await expect(
      page.getByText('Ann Harbour, you are about to accept 2 of 3 pieces of this estimate').count(),
    ).resolves.toBe(1);
    await shoot(page, 'phone-4-confirm');
    await page.getByRole('button', { name: 'Send my decision' }).click();
    await expect(page.locator('h2#decided').textContent()).resolves.toBe('Decided');
    await expect(page.getByText('Ann Harbour accepted part of this estimate').count()).resolves.toBe(1);
    expect(await page.locator('.outcome-declined').count()).toBe(1);
    await shoot(page, 'phone-5-decided');
    expect(errors).toEqual([]);

    const estimate = await fromOutside(app.database, (db) =>
      db.selectFrom('estimates').select('state').where('id', '=', link.estimateId).executeTakeFirstOrThrow(),
    );
    expect(estimate.state).toBe('partly_accepted');
    const decision = await fromOutside(app.database, (db) =>
      db
        .selectFrom('estimate_decisions')
        .selectAll()
        .where('revision_id', '=', link.revisionId)
        .executeTakeFirstOrThrow(),
    );
    expect(decision).toMatchObject({
      outcome: 'partly_accepted',
      decider_name: 'Ann Harbour',
      verified_email: 'ann@harbour.example',
    });
    const shown = (await (await fetch(`${app.url}/v1/shares/${link.token}/document`)).json()) as any;
    expect(shown.estimateRevision.decision.accepted.gross.amount4).toBe(accepted.amount4);
  });

  it('at 1280 px and in print: the decided revision, no forms', async () => {
    const wide = await browser.newContext({ viewport: VIEWPORTS.desktop, javaScriptEnabled: false });
    const desk = await wide.newPage();
    await desk.goto(`${app.url}/s/${link.token}`);
    await expect(desk.locator('h2#decided').textContent()).resolves.toBe('Decided');
    await shoot(desk, 'desktop-decided');
    await desk.emulateMedia({ media: 'print' });
    expect(await desk.locator('form').count()).toBe(0);
    await expect(desk.locator('.offer').isVisible()).resolves.toBe(true);
    await wide.close();
    await context.close();
  });
});
