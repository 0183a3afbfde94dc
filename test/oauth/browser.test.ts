/**
 * The whole OAuth flow with real parts: the real server process (dist/), the MCP SDK client's own OAuth support
 * (StreamableHTTPClientTransport with an OAuthClientProvider: discovery from the 401, dynamic registration, PKCE,
 * the resource indicator, the token exchange and, later, a refresh), and the consent page signed in and clicked through
 * in headless Chromium, choosing the second of the person's two studios; then, signed in once at `/login`, another
 * connection without typing the password again. The person's password is set with `studio password set`, as a
 * self-hoster would. SQLite only (vitest.config.ts): a browser run needs no second store.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { callAction, callTool } from '../helpers/calls.js';
import { fromOutside } from '../helpers/fixtures.js';
import { CLI, type RunningServer, startServer } from '../helpers/server.js';

const OWNER = { email: 'alex@hartley-rowe.example', password: 'a long password for Alex' };

let server: RunningServer;
let browser: Browser;
let callback: { url: string; next(): Promise<URL>; close(): Promise<void> };

/** With STUDIO_SCREENSHOTS=<dir>, the pages are kept there as PNGs, to look at. */
async function shot(page: Page, name: string) {
  const dir = process.env.STUDIO_SCREENSHOTS;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** `studio password set`, the password on standard input. */
function setPassword(env: Record<string, string>, email: string, password: string) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const proc = spawn(process.execPath, [CLI, 'password', 'set', '--email', email], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('close', (code) => resolve({ code, stderr }));
    proc.stdin.end(`${password}\n`);
  });
}

/** The client's loopback redirect listener (RFC 8252 §7.3), as a native MCP client runs one. */
async function callbackServer() {
  const waiting: Array<(u: URL) => void> = [];
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>You can close this window.</p>');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    for (const w of waiting.splice(0)) w(url);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => new Promise<URL>((r) => waiting.push(r)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** An OAuthClientProvider that keeps everything in memory and hands the authorization URL to the test. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  readonly sentState = `s-${crypto.randomUUID()}`;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata() {
    return {
      client_name: 'Studio e2e MCP client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.sentState;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

beforeAll(async () => {
  server = await startServer();
  const set = await setPassword(server.databaseEnv, OWNER.email, OWNER.password);
  expect(set.code, set.stderr).toBe(0);
  expect(set.stderr).toContain('Password set');
  // A second studio the owner belongs to, so the consent page offers a choice.
  const made = await fetch(`${server.url}/api/trpc/account.createStudio`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rowe Contract', currency: 'GBP', commandKey: crypto.randomUUID() }),
  });
  expect(made.status).toBe(200);
  browser = await launchBrowser();
  callback = await callbackServer();
});
afterAll(async () => {
  await browser?.close();
  await callback?.close();
  await server?.stop();
});

describe('an MCP client connects over OAuth', () => {
  it('discovers, registers, sends the person to consent in a browser, and works through the token', async () => {
    const provider = new MemoryProvider(callback.url);
    const mcpUrl = new URL('/mcp', server.url);
    const first = new Client({ name: 'e2e-oauth', version: '1.0.0' });
    const firstTransport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(first.connect(firstTransport)).rejects.toThrow(UnauthorizedError);
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.origin + authUrl.pathname).toBe(`${server.url}/authorize`);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(`${server.url}/mcp`);
    expect(provider.info?.client_id).toMatch(/^[0-9a-z]{26}$/);

    const context = await browser.newContext();
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    const response = await page.goto(authUrl.href);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Studio e2e MCP client');
    expect(await page.locator('script').count()).toBe(0);
    // Keyboard order is reading order: the email field comes first.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('email');
    await shot(page, 'oauth-sign-in');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: /act for you/ }).waitFor();
    const studios = page.getByRole('radio');
    expect(await studios.count()).toBe(2);
    const scopes = page.getByRole('checkbox');
    expect(await scopes.count()).toBe(16);
    for (const box of await scopes.all()) expect(await box.isChecked()).toBe(true);
    await shot(page, 'oauth-consent');
    await page.getByRole('radio', { name: /Rowe Contract/ }).check();
    // Each choice is a labelled group: a screen reader announces "Studio" and "What it may do".
    expect(await page.getByRole('group', { name: 'Studio' }).count()).toBe(1);
    expect(await page.getByRole('group', { name: 'What it may do' }).count()).toBe(1);
    const arrived = callback.next();
    await page.getByRole('button', { name: 'Allow' }).click();
    const back = await arrived;
    expect(back.searchParams.get('state')).toBe(provider.sentState);
    expect(back.searchParams.get('iss')).toBe(server.url);
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^mcp_code_/);
    expect(consoleErrors).toEqual([]);
    await context.close();

    await firstTransport.finishAuth(code);
    expect(provider.saved?.access_token).toMatch(/^mcp_at_/);
    expect(provider.saved?.refresh_token).toMatch(/^mcp_rt_/);

    const client = new Client({ name: 'e2e-oauth', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_actions', 'call_action', 'get_line']));
      const me = await callAction(client, 'get_current_user', {});
      expect(me.result.studio.name).toBe('Rowe Contract');
      expect(me.result.role).toBe('owner');
      const projects = await callTool(client, 'list_projects', {});
      expect(projects.result.items).toEqual([]);

      // An hour later the access token has expired: the SDK client refreshes it by itself and carries on.
      const spent = provider.saved!.refresh_token;
      await fromOutside(server.database, (db) =>
        db.updateTable('oauth_access_tokens').set({ expires_at: '2000-01-01T00:00:00.000Z' }).execute(),
      );
      const again = await callAction(client, 'get_current_user', {});
      expect(again.result.studio.name).toBe('Rowe Contract');
      expect(provider.saved!.refresh_token).not.toBe(spent);
    } finally {
      await client.close();
    }
  });

  it('signed in once at /login, the person connects another client without typing the password again', async () => {
    const provider = new MemoryProvider(callback.url);
    const mcpUrl = new URL('/mcp', server.url);
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(new Client({ name: 'e2e-oauth-2', version: '1.0.0' }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email address').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Signed in as' }).waitFor();

    const response = await page.goto(provider.authorizationUrl!.href);
    expect(response!.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/act for you/);
    expect(await page.getByLabel('Password').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Not you/ }).count()).toBe(1);
    await shot(page, 'oauth-consent-signed-in');
    const arrived = callback.next();
    await page.getByRole('button', { name: 'Allow' }).click();
    const back = await arrived;
    expect(back.searchParams.get('state')).toBe(provider.sentState);
    await context.close();
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^mcp_at_/);
  });
});
