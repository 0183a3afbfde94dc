/**
 * The client page of a share link (`/s/<token>`) in a real headless Chromium, over a project built through the real
 * API (priced pieces with distinctive trade prices, real photographs uploaded over HTTP, a mint, a share): the page
 * shows the document's sections, pieces, client prices and totals; every photograph loads with its piece's heading as
 * alt; it is accessible (landmarks, one h1, headings in order, keyboard order = reading order, contrast); no trade
 * price or margin is anywhere in its DOM; it prints without losing anything; it renders at phone and desktop widths;
 * and a revoked link shows the one "no longer available" page. The page allows no script, so none runs.
 *
 * Screenshots go to a temporary folder, removed afterwards, or to STUDIO_SCREENSHOTS when set (kept, to look at).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/surfaces/share-page/format.js';
import { launchBrowser, VIEWPORTS } from '../helpers/browser.js';
import type { Trpc } from '../helpers/clients.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';
import { buildSharedProject, issueShare, secretForms, type SharedProject } from './fixture.js';

let app: TestApp;
let owner: Trpc;
let browser: Browser;
let shots: string;
let shared: SharedProject;
/** The shared document as the API gives it: what the page must show. */
let doc: any;

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  browser = await launchBrowser();
  shots = process.env.STUDIO_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'share-page-'));
  mkdirSync(shots, { recursive: true });
  shared = await buildSharedProject(app, owner);
  doc = await (await fetch(`${app.url}/v1/shares/${shared.token}/document`)).json();
});
afterAll(async () => {
  await browser?.close();
  if (shots && !process.env.STUDIO_SCREENSHOTS) rmSync(shots, { recursive: true, force: true });
});

const pieces = (): any[] => doc.document.sections.flatMap((s: any) => s.pieces);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A fresh page on the share link, at a viewport; console errors (a CSP violation is one) are collected. */
async function open(viewport: { width: number; height: number } = VIEWPORTS.desktop) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const response = await page.goto(`${app.url}${shared.path}`);
  return { page, response: response!, errors, close: () => context.close() };
}

/** Brings every (lazily loaded) image into view and waits until each has loaded or failed. */
async function loadAllImages(page: Page) {
  for (const img of await page.locator('img').all()) {
    await img.scrollIntoViewIfNeeded();
    await page.waitForFunction((el) => (el as { complete: boolean }).complete, await img.elementHandle());
  }
}

describe('the client page of a share link', () => {
  it('renders the studio, title, introduction, sections, pieces, client prices and totals, under a strict CSP', async () => {
    const { page, response, errors, close } = await open();
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).toContain("img-src 'self'");
    expect(headers['content-security-policy']).not.toContain('script-src');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-robots-tag']).toContain('noindex');
    expect(headers['cache-control']).toBe('no-store');

    const d = doc.document;
    expect(await page.getByRole('banner').textContent()).toContain(d.studioName);
    expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual([d.title]);
    expect(await page.title()).toContain(d.title);
    expect(await page.locator('.introduction').textContent()).toBe(d.introduction);
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
      'Drawing room',
      'Principal bedroom',
      'Removed pieces',
      'Totals',
    ]);
    expect(await page.getByRole('heading', { level: 3 }).allTextContents()).toEqual(pieces().map((p) => p.heading));

    const main = (await page.getByRole('main').textContent())!;
    for (const p of pieces()) {
      if (p.reference) expect(main).toContain(p.reference);
      if (p.unitPrice) expect(main, p.heading).toContain(formatMoney(p.unitPrice));
      if (p.total) expect(main, p.heading).toContain(formatMoney(p.total));
    }
    for (const s of d.sections) expect(main).toContain(`Total for ${s.title}: ${formatMoney(s.total)}`);
    expect(main).toContain(formatMoney(d.totals.total));
    // Lead times as studios quote them: the sofa's 56 days are 8 weeks.
    for (const words of ['To be confirmed', 'Price on application', 'Included', 'Washed linen, oatmeal', '8 weeks']) {
      expect(main).toContain(words);
    }
    // The sofa: quantity 2, at a unit price and total formatted from the scale-4 strings.
    expect(main).toMatch(/Quantity\s*2 each/);
    const removed = (await page.locator('section[aria-labelledby="removed"]').textContent())!;
    expect(removed).toContain('Walnut side table');
    // The studio's accent colours the masthead (the second stylesheet, allowed by its hash).
    expect(await page.evaluate<string>(`getComputedStyle(document.querySelector('header')).backgroundColor`)).toBe(
      'rgb(122, 75, 42)',
    );
    expect(errors).toEqual([]);
    await close();
  });

  it('shows every photograph: each loads, with its piece heading as alt, a size and lazy loading', async () => {
    const { page, errors, close } = await open();
    await loadAllImages(page);
    const images = await page.evaluate<
      Array<{ alt: string; heading: string; natural: number; width: string; height: string; loading: string }>
    >(`[...document.querySelectorAll('img')].map((img) => ({
      alt: img.getAttribute('alt'),
      heading: img.closest('article').querySelector('h3').textContent,
      natural: img.naturalWidth,
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
      loading: img.getAttribute('loading'),
    }))`);
    expect(images.length).toBe(shared.photographs.shown.length);
    for (const img of images) {
      expect(img.natural, img.heading).toBeGreaterThan(0);
      expect(img.alt.length).toBeGreaterThan(0);
      expect(img.alt).toBe(img.heading);
      expect(Number(img.width)).toBeGreaterThan(0);
      expect(Number(img.height)).toBeGreaterThan(0);
      expect(img.loading).toBe('lazy');
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('is accessible: landmarks, one h1, headings in order, keyboard order = reading order, readable contrast', async () => {
    const { page, close } = await open();
    for (const role of ['banner', 'main', 'contentinfo'] as const) expect(await page.getByRole(role).count()).toBe(1);
    expect(await page.locator('h1').count()).toBe(1);
    // Headings never skip a level going down.
    const levels = await page.evaluate<number[]>(
      `[...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map((h) => Number(h.tagName[1]))`,
    );
    for (const [i, level] of levels.entries()) if (i) expect(level).toBeLessThanOrEqual(levels[i - 1]! + 1);

    // Tab visits the links (each photograph opens full size) in DOM order, which is top to bottom on the page.
    expect(await page.locator('[tabindex]').count()).toBe(0);
    const links = await page.evaluate<Array<{ href: string; top: number; left: number }>>(
      `[...document.querySelectorAll('a[href]')].map((a) => { const r = a.getBoundingClientRect(); return { href: a.href, top: r.top + scrollY, left: r.left }; })`,
    );
    // The room index (a link per room and one to the totals), the two pieces still to be confirmed in the summary,
    // and every photograph.
    const rooms = doc.document.sections.length + 1;
    expect(links.length).toBe(rooms + 2 + shared.photographs.shown.length);
    const visited: string[] = [];
    for (let i = 0; i < links.length; i++) {
      await page.keyboard.press('Tab');
      visited.push(await page.evaluate<string>('document.activeElement.href'));
    }
    expect(visited).toEqual(links.map((l) => l.href));
    for (const [i, l] of links.entries()) {
      if (!i) continue;
      const prev = links[i - 1]!;
      expect(l.top > prev.top || (l.top === prev.top && l.left > prev.left), l.href).toBe(true);
    }

    // Every run of text against the background it is drawn on: WCAG AA (4.5:1; 3:1 for large text).
    const poor = await page.evaluate<string[]>(`(() => {
      const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
      const background = (el) => {
        for (let e = el; e; e = e.parentElement) {
          const c = rgb(getComputedStyle(e).backgroundColor);
          if (c.length < 4 || c[3] > 0) return c;
        }
        return [255, 255, 255];
      };
      const poor = [];
      for (const el of document.querySelectorAll('body *')) {
        if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
        const s = getComputedStyle(el);
        const [a, b] = [lum(rgb(s.color)), lum(background(el))].sort((x, y) => y - x);
        const ratio = (a + 0.05) / (b + 0.05);
        const large = parseFloat(s.fontSize) >= 24 || (parseFloat(s.fontSize) >= 18.66 && Number(s.fontWeight) >= 700);
        if (ratio < (large ? 3 : 4.5)) poor.push(el.tagName + ' ' + el.textContent.trim().slice(0, 30) + ' ' + ratio.toFixed(2));
      }
      return poor;
    })()`);
    expect(poor).toEqual([]);
    await close();
  });

  it('carries no trade price, markup or margin anywhere in its DOM, while the client prices are there', async () => {
    const { page, close } = await open();
    const dom = await page.evaluate<string>('document.documentElement.outerHTML');
    const forms = secretForms();
    expect(forms).toEqual(expect.arrayContaining(['987654321', '98,765.4321', '98765.43', '98,765.43']));
    expect(forms.filter((f) => dom.includes(f))).toEqual([]);
    expect(await page.getByRole('main').textContent()).not.toMatch(/trade|markup|margin|cost/i);
    // Not vacuous: the sofa's client unit price, derived from that trade price, is on the page.
    expect(dom).toContain(formatMoney(pieces()[0].unitPrice));
    await close();
  });

  it('prints everything essential, without navigation chrome, and makes a PDF', async () => {
    const { page, close } = await open();
    await loadAllImages(page);
    await page.emulateMedia({ media: 'print' });
    for (const selector of [
      'header',
      'h1',
      'h2',
      'h3',
      '.summary',
      '.figures',
      '.details',
      '.photographs img',
      'footer',
    ]) {
      const all = await page.locator(selector).all();
      expect(all.length, selector).toBeGreaterThan(0);
      for (const el of all) expect(await el.isVisible(), selector).toBe(true);
    }
    // The room index is for the screen: in print it takes no room.
    for (const nav of await page.locator('nav, [role="navigation"]').all()) expect(await nav.isVisible()).toBe(false);
    const pinned = await page.evaluate<number>(
      `[...document.querySelectorAll('body *')].filter((el) => ['fixed', 'sticky'].includes(getComputedStyle(el).position) && el.getClientRects().length).length`,
    );
    expect(pinned).toBe(0);
    expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe('rgb(255, 255, 255)');
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(5000);
    await close();
  });

  it('renders at phone and desktop widths without sideways scrolling (screenshots are PNGs of that width)', async () => {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const { page, close } = await open(viewport);
      await loadAllImages(page);
      // Back to the top, so the room bar is where a visitor first sees it.
      await page.evaluate('window.scrollTo(0, 0)');
      await page.evaluate('document.fonts.ready');
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow, name).toBeLessThanOrEqual(0);
      const file = join(shots, `share-page-${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      const png = readFileSync(file);
      expect(png.length, name).toBeGreaterThan(1000);
      expect(png.subarray(0, 8).equals(PNG), name).toBe(true);
      // The PNG's own header says the width it was taken at.
      expect(png.readUInt32BE(16), name).toBe(viewport.width);
      await close();
    }
  });

  it('a revoked share shows "This link is no longer available" with 403', async () => {
    const { path, shareId } = await issueShare(owner, shared.projectId);
    await owner.shares.revokeProjectShare.mutate({
      projectId: shared.projectId,
      shareId,
      commandKey: crypto.randomUUID(),
    });
    const page = await browser.newPage();
    const response = await page.goto(`${app.url}${path}`);
    expect(response?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link is no longer available');
    expect(await page.content()).not.toContain(doc.document.studioName);
    await page.close();
  });
});

describe('the client page as a studio presents it', () => {
  it('opens with a summary: rooms and pieces, what is still to be confirmed (linked), and the total', async () => {
    const { page, close } = await open();
    const summary = page.getByRole('region', { name: 'Summary' });
    const text = (await summary.textContent())!;
    expect(text).toContain('2 rooms · 6 pieces');
    expect(text).toContain(formatMoney(doc.document.totals.total));
    expect(text).toMatch(/To be confirmed\s*2 pieces/);
    const pending = await summary.getByRole('link').all();
    expect(await Promise.all(pending.map((l) => l.textContent()))).toEqual([
      'Hand-knotted wool rug',
      'Hand-painted silk wallpaper',
    ]);
    // Each link lands on its piece's heading.
    const target = (await pending[0]!.getAttribute('href'))!.slice(1);
    expect(await page.locator(`[id="${target}"]`).textContent()).toBe('Hand-knotted wool rug');
    // The summary comes before the first room.
    const order = await page.evaluate<boolean>(
      `document.querySelector('.summary').compareDocumentPosition(document.querySelector('h2')) === Node.DOCUMENT_POSITION_FOLLOWING`,
    );
    expect(order).toBe(true);
    await close();
  });

  it('keeps the room index on screen on a phone, and its links land on each room below the bar', async () => {
    const { page, close } = await open(VIEWPORTS.phone);
    const nav = page.getByRole('navigation', { name: 'Rooms' });
    const links = nav.getByRole('link');
    expect(await links.allTextContents()).toEqual(['Drawing room 2', 'Principal bedroom 4', 'Totals']);
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    const bar = (await nav.boundingBox())!;
    expect(bar.y).toBeGreaterThanOrEqual(0);
    expect(bar.y).toBeLessThan(5);
    // Every target of a room link (44 px high at least) is reachable from anywhere on the page.
    for (const link of await links.all()) expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await links.nth(1).click();
    await page.waitForFunction(`location.hash === '#section-2'`);
    const heading = (await page.locator('#section-2').boundingBox())!;
    const barNow = (await nav.boundingBox())!;
    expect(heading.y).toBeGreaterThanOrEqual(barNow.y + barNow.height - 1);
    expect(heading.y).toBeLessThan(VIEWPORTS.phone.height / 2);
    await close();
  });

  it('lays every piece on one grid: its labels share one x, its figures one right edge, at both widths', async () => {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const { page, close } = await open(viewport);
      const pieces = await page.evaluate<
        Array<{
          heading: string;
          dt: number[];
          dd: number[];
          figuresRight: number[];
          figuresLeft: number;
          bodyRight: number;
        }>
      >(`[...document.querySelectorAll('.piece')].map((piece) => {
        const box = (el) => el.getBoundingClientRect();
        return {
          heading: piece.querySelector('h3').textContent,
          dt: [...piece.querySelectorAll('.details dt')].map((el) => Math.round(box(el).left)),
          dd: [...piece.querySelectorAll('.details dd')].map((el) => Math.round(box(el).left)),
          figuresRight: [...piece.querySelectorAll('.figures dd')].map((el) => Math.round(box(el).right)),
          figuresLeft: Math.round(box(piece.querySelector('.figures')).left),
          bodyRight: Math.round(box(piece.querySelector('.piece-body')).right),
        };
      })`);
      expect(pieces.length, name).toBe(6);
      const withDetails = pieces.filter((p) => p.dt.length > 1);
      expect(withDetails.length, name).toBeGreaterThan(0);
      for (const p of pieces) {
        expect(new Set(p.dt).size, `${name} ${p.heading} labels`).toBeLessThanOrEqual(1);
        expect(new Set(p.dd).size, `${name} ${p.heading} values`).toBeLessThanOrEqual(1);
        // Prices right-aligned: every figure ends at the same x.
        expect(new Set(p.figuresRight).size, `${name} ${p.heading} figures`).toBe(1);
        // On a desktop the price stands in a column of its own, right of the details.
        if (name === 'desktop') expect(p.figuresLeft, p.heading).toBeGreaterThan(p.bodyRight);
      }
      // And the price column's right edge is the same for every piece.
      expect(new Set(pieces.map((p) => p.figuresRight[0])).size, name).toBe(1);
      await close();
    }
  });

  it('gives prices weight: a piece total is larger and bolder than its labels', async () => {
    const { page, close } = await open();
    const [total, label] = await page.evaluate<Array<{ size: number; weight: number }>>(
      `[document.querySelector('.figures .amount'), document.querySelector('.figures dt')].map((el) => ({ size: parseFloat(getComputedStyle(el).fontSize), weight: Number(getComputedStyle(el).fontWeight) }))`,
    );
    expect(total!.size).toBeGreaterThan(label!.size);
    expect(total!.weight).toBeGreaterThanOrEqual(600);
    await close();
  });

  it('leaves no empty photograph frame on a piece without photographs', async () => {
    const { page, close } = await open();
    const rug = page.locator('.piece', { hasText: 'Hand-knotted wool rug' });
    expect(await rug.locator('.photographs').count()).toBe(0);
    const [heading, article] = await Promise.all([
      rug.locator('h3').boundingBox(),
      rug.locator('article').boundingBox(),
    ]);
    // Its heading starts where the piece does, not after an empty photograph column.
    expect(Math.round(heading!.x)).toBe(Math.round(article!.x));
    await close();
  });

  it('sets its text in the typefaces the server ships, and asks no other host for anything', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const fonts: Array<{ url: string; status: number; type: string | undefined }> = [];
    page.on('response', (r) => {
      if (r.url().includes('/fonts/'))
        fonts.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] });
    });
    await page.goto(`${app.url}${shared.path}`);
    await loadAllImages(page);
    await page.evaluate('document.fonts.ready');
    const origin = new URL(app.url).origin;
    expect(requests.length).toBeGreaterThan(1);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'))).toEqual([]);
    expect(fonts.map((f) => new URL(f.url).pathname).sort()).toEqual([
      '/fonts/fraunces-latin-wght-normal.woff2',
      '/fonts/inter-latin-wght-normal.woff2',
    ]);
    for (const f of fonts) expect(f).toMatchObject({ status: 200, type: 'font/woff2' });
    expect(
      await page.evaluate<boolean>(`document.fonts.check('16px Inter') && document.fonts.check('16px Fraunces')`),
    ).toBe(true);
    const loaded = await page.evaluate<string[]>(
      `[...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replaceAll('"', ''))`,
    );
    expect(new Set(loaded)).toEqual(new Set(['Inter', 'Fraunces']));
    expect(await page.evaluate<string>(`getComputedStyle(document.body).fontFamily`)).toMatch(/^"?Inter"?,/);
    expect(await page.evaluate<string>(`getComputedStyle(document.querySelector('h1')).fontFamily`)).toMatch(
      /^"?Fraunces"?,/,
    );
    await context.close();
  });

  it('serves the fonts by name only, revalidated by ETag', async () => {
    const res = await fetch(`${app.url}/fonts/inter-latin-wght-normal.woff2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/woff2');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('wOF2');
    const again = await fetch(`${app.url}/fonts/inter-latin-wght-normal.woff2`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    for (const name of ['..%2Fpackage.json', 'inter.ttf', 'nothing.woff2']) {
      const refused = await fetch(`${app.url}/fonts/${name}`);
      expect(refused.status, name).toBeGreaterThanOrEqual(400);
      expect(refused.headers.get('content-type'), name).not.toBe('font/woff2');
    }
  });
});
