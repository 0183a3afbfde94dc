/**
 * The client page of a share link (`/s/<token>`) in a real browser: a fresh share shows the studio's name in an
 * accessible page (language, a main landmark, one heading), a revoked one the single "no longer available" page with
 * 403, and both render at phone and desktop widths. The page allows no script, so none runs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createTestAppAsOwner, type TestApp } from '../helpers/in-process.js';
import type { Trpc } from '../helpers/clients.js';
import { launchBrowser, VIEWPORTS } from '../helpers/browser.js';

let app: TestApp;
let owner: Trpc;
let browser: Browser;
let shots: string;
let studioName: string;

beforeAll(async () => {
  ({ app, owner } = await createTestAppAsOwner());
  browser = await launchBrowser();
  shots = mkdtempSync(join(tmpdir(), 'share-page-'));
  studioName = (await owner.studio.getStudio.query({})).name;
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (shots) rmSync(shots, { recursive: true, force: true });
});

/** A fresh share's link. The in-process app mints links on its configured base URL (port 0), so the path is reused. */
const issue = async () => {
  const share = await owner.shares.issueProjectShare.mutate({
    projectId: app.projectId,
    commandKey: crypto.randomUUID(),
  });
  return `${app.url}${new URL(share.url!).pathname}`;
};

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('the client page of a share link', () => {
  it('a fresh share renders the studio name in a page with its language, a main landmark and one heading', async () => {
    const url = await issue();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.locator('main').count()).toBe(1);
    const headings = page.getByRole('heading', { level: 1 });
    expect(await headings.count()).toBe(1);
    expect(await headings.textContent()).toBe(studioName);
    expect(await page.getByRole('main').textContent()).toContain('The schedule will appear here');
    expect(await page.title()).toContain(studioName);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).not.toContain('script-src');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-robots-tag']).toContain('noindex');
    expect(headers['cache-control']).toBe('no-store');
    // The stylesheet is allowed by its hash: applied, and the browser reported no CSP violation.
    expect(await page.locator('main').evaluate('(el) => getComputedStyle(el).maxWidth')).not.toBe('none');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a revoked share shows "This link is no longer available" with 403', async () => {
    const url = await issue();
    const shares = await owner.shares.listProjectShares.query({ projectId: app.projectId });
    const shareId = shares.items.find((s) => url.endsWith(s.tokenHint))!.id;
    await owner.shares.revokeProjectShare.mutate({
      projectId: app.projectId,
      shareId,
      commandKey: crypto.randomUUID(),
    });
    const page = await browser.newPage();
    const response = await page.goto(url);
    expect(response?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link is no longer available');
    expect(await page.content()).not.toContain(studioName);
    await page.close();
  });

  it('renders at phone and desktop widths without sideways scrolling (screenshots are PNGs)', async () => {
    const url = await issue();
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(url);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow, name).toBeLessThanOrEqual(0);
      const file = join(shots, `share-page-${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      const png = readFileSync(file);
      expect(png.length, name).toBeGreaterThan(1000);
      expect(png.subarray(0, 8).equals(PNG), name).toBe(true);
      // The PNG's own header says the width it was taken at.
      expect(png.readUInt32BE(16), name).toBe(viewport.width);
      await context.close();
    }
  });
});
