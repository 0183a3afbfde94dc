/**
 * The pages a person reads, in Chromium against the real server process (`npm run build` first: the REST reference is
 * Redoc's page made at build time): `/`, `/docs`, the REST reference, the action catalog by domain and the error codes.
 * Every request each page makes goes to the server itself, no Content-Security-Policy violation is reported, every
 * problem `type` (`/docs/errors#CODE`) opens on its code's row, and every domain and action of the catalog has its
 * page and section.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/core/errors.js';
import { launchBrowser, VIEWPORTS } from '../helpers/browser.js';
import { openServer, type RunningServer } from '../helpers/server.js';

let server: RunningServer;
let browser: Browser;
openServer((started) => (server = started));
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

interface Visit {
  page: Page;
  status: number;
  /** Every URL the page asked for, itself included. */
  requests: string[];
  /** Console errors: a CSP violation is one. */
  errors: string[];
  close(): Promise<void>;
}

async function visit(path: string, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Visit> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
  return { page, status: response!.status(), requests, errors, close: () => context.close() };
}

/** Every request went to this server (data: URLs ask nothing of the network). */
function expectOnlyOwnRequests(v: Visit) {
  const origin = new URL(server.url).origin;
  const elsewhere = v.requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
  expect(elsewhere).toEqual([]);
}

const catalog = async () => (await (await fetch(`${server.url}/docs/api/actions.json`)).json()) as any;

describe('the home page and the docs index', () => {
  it('GET / links the docs, sign-in and health, and each link answers', async () => {
    const v = await visit('/');
    expect(v.status).toBe(200);
    const links = await v.page.evaluate<string[]>(`[...document.querySelectorAll('main a')].map((a) => a.href)`);
    for (const path of ['/docs', '/login', '/health', '/health/ready']) expect(links).toContain(`${server.url}${path}`);
    for (const link of links) expect((await fetch(link)).status, link).toBe(200);
    expectOnlyOwnRequests(v);
    expect(v.errors).toEqual([]);
    await v.close();
  });

  it('/docs links the reference, the catalog and the error codes, at a phone width too', async () => {
    const v = await visit('/docs', VIEWPORTS.phone);
    expect(await v.page.locator('h1').textContent()).toBe('Documentation');
    for (const path of ['/docs/reference', '/docs/actions', '/docs/errors', '/docs/openapi.json']) {
      expect(await v.page.locator(`main a[href="${path}"]`).count(), path).toBe(1);
    }
    // Nothing is wider than the phone's screen.
    expect(await v.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(v.errors).toEqual([]);
    await v.close();
  });

  it('the pages run no script and allow nothing from elsewhere', async () => {
    for (const path of ['/', '/docs', '/docs/actions', '/docs/errors']) {
      const res = await fetch(`${server.url}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; img-src data:;/);
      expect(csp, path).not.toContain('script-src');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});

describe('the error codes', () => {
  it('every code of the catalog has its row, named by its id', async () => {
    const v = await visit('/docs/errors');
    const ids = await v.page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.id));
    expect(ids).toEqual(ERROR_CODES);
    expectOnlyOwnRequests(v);
    expect(v.errors).toEqual([]);
    await v.close();
  });

  it("a real problem's type opens the page on its code's row", async () => {
    const problem = (await (await fetch(`${server.url}/v1/projects`)).json()) as { type: string; code: string };
    expect(problem.type).toBe('/docs/errors#UNAUTHENTICATED');
    const v = await visit(problem.type);
    expect(v.status).toBe(200);
    const target = v.page.locator(':target');
    expect(await target.locator('td').first().textContent()).toBe(problem.code);
    expect(await target.isVisible()).toBe(true);
    expect(await target.evaluate((row) => row.getBoundingClientRect().top)).toBeLessThan(VIEWPORTS.desktop.height);
    await v.close();
  });
});

describe('the action catalog', () => {
  it('lists every domain, and each domain page has a section per action linking its errors', async () => {
    const { actions } = await catalog();
    const domains = [...new Set<string>(actions.map((a: any) => a.domain))].sort();
    const index = await visit('/docs/actions');
    const listed = await index.page.locator('main li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(listed).toEqual(domains.map((d) => `/docs/actions/${d}`));
    await index.close();
    for (const domain of domains) {
      const res = await fetch(`${server.url}/docs/actions/${domain}`);
      expect(res.status, domain).toBe(200);
      const text = await res.text();
      for (const a of actions.filter((x: any) => x.domain === domain)) {
        expect(text, a.name).toContain(`<section id="${a.name}"`);
        for (const code of a.errors) expect(text).toContain(`href="/docs/errors#${code}"`);
      }
    }
  });

  it('a domain page reads in Chromium: its contents link to its sections, and it asks nothing of elsewhere', async () => {
    const v = await visit('/docs/actions/schedule', VIEWPORTS.phone);
    const anchors = await v.page.locator('main > ul a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(anchors.length).toBeGreaterThan(5);
    for (const anchor of anchors) expect(await v.page.locator(anchor!).count(), anchor!).toBe(1);
    expectOnlyOwnRequests(v);
    expect(v.errors).toEqual([]);
    await v.close();
  });

  it('an unknown domain is a 404 problem naming the catalog', async () => {
    const res = await fetch(`${server.url}/docs/actions/nothing`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toContain('/docs/actions');
  });
});

describe('the REST reference (Redoc, built by npm run build)', () => {
  it('lists every tag of the OpenAPI document and opens one, asking nothing of another site', async () => {
    const openapi = (await (await fetch(`${server.url}/docs/openapi.json`)).json()) as any;
    const v = await visit('/docs/reference');
    expect(v.status).toBe(200);
    await v.page.locator('h1', { hasText: openapi.info.title }).waitFor();
    for (const tag of openapi.tags.map((t: { name: string }) => t.name)) {
      expect(await v.page.getByText(tag, { exact: true }).count(), tag).toBeGreaterThan(0);
    }
    await v.page.getByText('schedule', { exact: true }).first().click();
    await v.page.locator('h2', { hasText: /^schedule$/ }).waitFor();
    await v.page.getByText('/v1/projects/{projectId}/items/{itemId}').first().waitFor();
    expect(new URL(v.page.url()).hash).toBe('#/schedule');
    expectOnlyOwnRequests(v);
    expect(v.errors).toEqual([]);
    await v.close();
  });

  it('runs only its own inline scripts, by hash, and is sent gzipped when asked', async () => {
    const res = await fetch(`${server.url}/docs/reference`, { headers: { 'accept-encoding': 'gzip' } });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'sha256-[^']+'( 'sha256-[^']+')*;/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("connect-src 'self'");
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toContain('<title>Studio API reference</title>');
    const again = await fetch(`${server.url}/docs/reference`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });
});
