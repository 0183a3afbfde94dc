/**
 * "Xero" for the accounting tests, built from Xero's own contract: Stoplight Prism in mock mode with --errors in front
 * of xero_accounting.yaml and xero-identity.yaml (a request that breaks the contract is answered with an error, which
 * the tests assert never happens), and a standards OAuth 2.0 server (oauth2-mock-server) on Xero's identity paths for
 * the token exchange, refresh and revocation. A front door routes the API base URL to the two Prisms, records every
 * request (for Xero's business rules Prism cannot check) and can answer one 429 or 401 first when a test asks.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import YAML from 'yaml';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll } from 'vitest';
import type { Trpc } from '../helpers/clients.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { spawnPrism } from '../helpers/prism.js';
import { launchBrowser } from '../helpers/browser.js';
import { ROOT } from '../helpers/server.js';

export const CONTRACT_DIR = process.env.XERO_CONTRACTS ?? join(ROOT, 'test/contracts/xero');

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

/** The Accounting API paths the server calls; Prism is given these with every component they reach. */
const PATHS_USED = ['/Accounts', '/TaxRates', '/Contacts', '/Invoices'];

/**
 * Xero's accounting contract cut to the paths the server calls, mechanically: those paths as Xero wrote them, and
 * every component they reach by $ref. Prism takes about 50 s to start over the whole 20,000-line file on a busy
 * machine and about 10 s over this; what it validates for these paths is the same.
 */
function contractForPathsUsed(): string {
  const doc = YAML.parse(readFileSync(join(CONTRACT_DIR, 'xero_accounting.yaml'), 'utf8'));
  doc.paths = Object.fromEntries(PATHS_USED.map((p) => [p, doc.paths[p]]));
  const reached = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k !== '$ref' || typeof x !== 'string') walk(x);
      else if (!reached.has(x)) {
        reached.add(x);
        const [, , section, name] = x.split('/');
        walk(doc.components[section!][name!]);
      }
    }
  };
  walk(doc.paths);
  const components: Record<string, Record<string, unknown>> = { securitySchemes: doc.components.securitySchemes };
  for (const ref of reached) {
    const [, , section, name] = ref.split('/');
    (components[section!] ??= {})[name!] = doc.components[section!][name!];
  }
  doc.components = components;
  const file = join(mkdtempSync(join(tmpdir(), 'xero-contract-')), 'xero_accounting.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** The identity contract's own example of /Connections, which it wrote as a JSON string: parsed, it is the array. */
function connectionsExample(): unknown {
  const doc = YAML.parse(readFileSync(join(CONTRACT_DIR, 'xero-identity.yaml'), 'utf8'));
  return JSON.parse(doc.paths['/Connections'].get.responses['200'].content['application/json'].example);
}

async function startPrismMock(spec: string): Promise<{ url: string; proc: ChildProcess }> {
  const { port, proc } = await spawnPrism(['mock', spec, '--errors']);
  return { url: `http://127.0.0.1:${port}`, proc };
}

/** An answer given before Prism: a status (429 carries Retry-After: 1), or a status with Xero's error body. */
export type Fault = number | { status: number; body: unknown };

export interface XeroWorld {
  oauth: OAuth2Server;
  /** STUDIO_XERO_* for the app. */
  env: Record<string, string>;
  sent: Sent[];
  /** The next API requests are answered with these before reaching Prism. */
  faults: Fault[];
  /** Xero's invoices as created, by Idempotency-Key (a key sent again answers the invoice it made). */
  invoices: Map<string, XeroInvoice>;
  /** When set, the next invoice Xero creates answers a Total this much (in the currency) above the lines' sum. */
  skewTotal: { by: number };
  /** Requests Prism refused (the server broke Xero's contract): the tests expect none. */
  refused(): Sent[];
  stop(): Promise<void>;
}

export interface XeroInvoice {
  InvoiceID: string;
  InvoiceNumber: string;
  Type: string;
  Status: string;
  Contact: unknown;
  LineItems: { LineAmount: number; TaxAmount: number }[];
  SubTotal: number;
  TotalTax: number;
  Total: number;
}

/** One of Xero's decimal amounts in whole cents, so sums compare without a float's rounding. */
export const cents = (n: unknown) => Math.round(Number(n) * 100);

/**
 * What Xero's createInvoices answers for an invoice it accepted: its id and number, the lines as sent, and totals
 * summed from the lines (Xero sums the lines' amounts and their tax; it never taxes the total).
 */
function createdInvoice(sent: any, number: number, skew: number): XeroInvoice {
  const lines = (sent.LineItems ?? []).map((l: any) => ({
    ...l,
    LineAmount: l.LineAmount ?? cents(Number(l.Quantity) * Number(l.UnitAmount)) / 100,
    TaxAmount: l.TaxAmount ?? 0,
  }));
  const sub = lines.reduce((t: number, l: any) => t + cents(l.LineAmount), 0);
  const tax = lines.reduce((t: number, l: any) => t + cents(l.TaxAmount), 0);
  return {
    ...sent,
    InvoiceID: randomUUID(),
    InvoiceNumber: `INV-${String(number).padStart(4, '0')}`,
    LineItems: lines,
    SubTotal: sub / 100,
    TotalTax: tax / 100,
    Total: (sub + tax + cents(skew)) / 100,
  };
}

export async function startXero(): Promise<XeroWorld> {
  const [accounting, identity] = await Promise.all([
    startPrismMock(contractForPathsUsed()),
    startPrismMock(join(CONTRACT_DIR, 'xero-identity.yaml')),
  ]);
  const connections = connectionsExample();
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
  const faults: Fault[] = [];
  const invoices = new Map<string, XeroInvoice>();
  const skewTotal = { by: 0 };

  /**
   * Prism checks the request against the contract and answers the contract's example; where the example cannot be
   * the answer, the door answers in its place once Prism accepted the request: /Connections (the identity contract
   * wrote its example as a string, so Prism would answer random schema data, sometimes an empty list) and a created
   * invoice (Xero's answer carries the invoice the request described, its totals summed from its lines).
   */
  function answerFor(req: { method: string; path: string; headers: Sent['headers'] }, body: any): unknown {
    if (req.path.startsWith('/Connections')) return connections;
    if (req.method !== 'PUT' || !req.path.startsWith('/api.xro/2.0/Invoices')) return undefined;
    const key = String(req.headers['idempotency-key'] ?? randomUUID());
    let made = invoices.get(key);
    if (!made) {
      made = createdInvoice(body.Invoices[0], invoices.size + 1, skewTotal.by);
      skewTotal.by = 0;
      invoices.set(key, made);
    }
    return { Id: randomUUID(), Status: 'OK', ProviderName: 'studio-tests', Invoices: [made] };
  }

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
        const status = typeof fault === 'number' ? fault : fault.status;
        record.status = status;
        record.injected = true;
        res.writeHead(status, {
          'content-type': 'application/json',
          ...(status === 429 ? { 'retry-after': '1' } : {}),
        });
        return res.end(JSON.stringify(typeof fault === 'number' ? { Title: 'injected', Status: fault } : fault.body));
      }
      const api = req.url!.startsWith('/api.xro/2.0/');
      const target = api ? accounting.url + req.url!.slice('/api.xro/2.0'.length) : identity.url + req.url!;
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
      ) as Record<string, string>;
      if (!api) headers.prefer = 'dynamic=true';
      const answer = await fetch(target, { method: req.method, headers, body: text || undefined });
      record.status = answer.status;
      const body = await answer.text();
      const own = answer.ok ? answerFor(record, record.body) : undefined;
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(own === undefined ? body : JSON.stringify(own));
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
    invoices,
    skewTotal,
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

/**
 * The person's leg in a real browser (Chromium, test/helpers/browser.ts): it opens the authorization URL, the OAuth
 * server agrees and redirects, the browser follows to the server's callback; answers the page's status and text.
 */
export async function agreeInChromium(authorizationUrl: string): Promise<{ status: number; text: string }> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const landed = await page.goto(authorizationUrl);
    return { status: landed?.status() ?? 0, text: (await page.textContent('body')) ?? '' };
  } finally {
    await browser.close();
  }
}

/**
 * How an accounting suite opens: Xero's world first (its Prisms take minutes on a cold machine), then a test app that
 * talks to it (`openTestAppWithMcp` with the world's environment), handed to `take` before the file's tests; both are
 * stopped after the file's last test.
 */
export function openXeroTestApp(take: (opened: { app: TestApp; owner: Trpc; mcp: Client; xero: XeroWorld }) => void) {
  let xero: XeroWorld;
  beforeAll(async () => {
    xero = await startXero();
  }, 900_000);
  afterAll(async () => xero?.stop());
  openTestAppWithMcp(
    (opened) => take({ ...opened, xero }),
    () => xero.env,
  );
}

/**
 * Every answer a suite received, for the walk at its end that proves no token reached one: `seen(answer)` keeps the
 * answer and hands it back.
 */
export function answerLog() {
  const answers: unknown[] = [];
  const seen = <T>(answer: T): T => {
    answers.push(answer);
    return answer;
  };
  return { answers, seen };
}
