/**
 * "Xero" for the accounting tests, built from Xero's own contract: Stoplight Prism in mock mode with --errors in front
 * of xero_accounting.yaml and xero-identity.yaml (a request that breaks the contract is answered with an error, which
 * the tests assert never happens), and a standards OAuth 2.0 server (oauth2-mock-server) on Xero's identity paths for
 * the token exchange, refresh and revocation. A front door routes the API base URL to the two Prisms, records every
 * request (for Xero's business rules Prism cannot check) and can answer one 429 or 401 first when a test asks.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import { binOf } from '../mcp/node22-clients.js';
import { ROOT } from '../helpers/server.js';

export const CONTRACT_DIR = process.env.XERO_CONTRACTS ?? join(ROOT, '../shared/contracts/xero');

export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** What Prism answered (an injected fault is not sent to Prism and has `injected`). */
  status: number;
  injected?: true;
}

/** A token value no part of the server should ever print: every token the OAuth server issues contains it. */
export const CANARY = 'CANARY-xero-token-7f3c9a';

async function startPrismMock(spec: string): Promise<{ url: string; proc: ChildProcess }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const proc = spawn(
    process.execPath,
    [
      binOf('@stoplight/prism-cli', 'prism'),
      'mock',
      join(CONTRACT_DIR, spec),
      '--errors',
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      log += d.toString();
      if (/Prism is listening/.test(log)) resolve();
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`prism exited with ${code}: ${log}`)));
  });
  return { url: `http://127.0.0.1:${port}`, proc };
}

export interface XeroWorld {
  oauth: OAuth2Server;
  /** STUDIO_XERO_* for the app. */
  env: Record<string, string>;
  sent: Sent[];
  /** The next API requests are answered with these statuses before reaching Prism (429 carries Retry-After: 1). */
  faults: number[];
  /** Requests Prism refused (the server broke Xero's contract): the tests expect none. */
  refused(): Sent[];
  stop(): Promise<void>;
}

export async function startXero(): Promise<XeroWorld> {
  const [accounting, identity] = await Promise.all([
    startPrismMock('xero_accounting.yaml'),
    startPrismMock('xero-identity.yaml'),
  ]);
  const oauth = new OAuth2Server(undefined, undefined, {
    endpoints: { token: '/connect/token', authorize: '/identity/connect/authorize', revoke: '/connect/revocation' },
  });
  await oauth.issuer.keys.generate('RS256');
  let issued = 0;
  oauth.service.on('beforeResponse', (res: { body: Record<string, unknown> }) => {
    issued += 1;
    res.body.access_token = `${CANARY}-access-${issued}`;
    res.body.refresh_token = `${CANARY}-refresh-${issued}`;
  });
  await oauth.start(0, '127.0.0.1');
  const sent: Sent[] = [];
  const faults: number[] = [];
  const door: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const record: Sent = {
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
        status: 0,
      };
      sent.push(record);
      const fault = faults.shift();
      if (fault) {
        record.status = fault;
        record.injected = true;
        res.writeHead(fault, { 'content-type': 'application/json', ...(fault === 429 ? { 'retry-after': '1' } : {}) });
        return res.end(JSON.stringify({ Title: 'injected', Status: fault }));
      }
      const api = req.url!.startsWith('/api.xro/2.0/');
      const target = api ? accounting.url + req.url!.slice('/api.xro/2.0'.length) : identity.url + req.url!;
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
      ) as Record<string, string>;
      // The identity contract's only example for /Connections is a JSON string, not the array its schema says, so
      // Prism (with --errors) refuses its own example: it answers from the schema instead.
      if (!api) headers.prefer = 'dynamic=true';
      const answer = await fetch(target, { method: req.method, headers, body: text || undefined });
      record.status = answer.status;
      const body = await answer.text();
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((r) => door.listen(0, '127.0.0.1', r));
  const address = door.address();
  const doorUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const issuer = oauth.issuer.url!.replace(/\/$/, '');
  return {
    oauth,
    sent,
    faults,
    env: {
      STUDIO_XERO_CLIENT_ID: 'studio-test-client',
      STUDIO_XERO_CLIENT_SECRET: 'studio-test-client-secret',
      STUDIO_XERO_LOGIN_URL: issuer,
      STUDIO_XERO_IDENTITY_URL: issuer,
      STUDIO_XERO_API_URL: doorUrl,
      STUDIO_SECRET: 'accounting-tests-secret-0123456789abcdef',
    },
    refused: () => sent.filter((s) => !s.injected && s.status >= 400),
    async stop() {
      await new Promise<void>((r) => door.close(() => r()));
      await oauth.stop();
      accounting.proc.kill();
      identity.proc.kill();
    },
  };
}

/**
 * The person's leg, as their browser would: open the authorization URL (the OAuth server agrees at once and
 * redirects) and follow the redirect to the server's callback; answers the callback page's status and text.
 */
export async function agreeInBrowser(authorizationUrl: string): Promise<{ status: number; text: string }> {
  const agreed = await fetch(authorizationUrl, { redirect: 'manual' });
  const back = agreed.headers.get('location');
  if (!back) throw new Error(`the authorization server answered ${agreed.status} without a redirect`);
  const page = await fetch(back);
  return { status: page.status, text: await page.text() };
}
