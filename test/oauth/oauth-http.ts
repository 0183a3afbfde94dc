/**
 * OAuth driven over plain HTTP, as a browser and an MCP client would: register, open the authorization URL, sign in
 * and decide on the consent page (forms posted with this server's Origin, as a browser sends it, and the session
 * cookie the sign-in set), exchange the code. Nothing here knows the server's internals; the consent forms are read
 * from the HTML the server renders.
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, expect } from 'vitest';
import { hashPassword } from '../../src/domain/people/passwords.js';
import { fromOutside } from '../helpers/fixtures.js';
import { expectNoInternals } from '../helpers/e2e.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';

export const REDIRECT = 'http://127.0.0.1:8976/callback';

/** The demo owner, with the password the OAuth suites give them in setup (givePassword). */
export const OWNER = { email: 'alex@hartley-rowe.example', password: 'harbour-house-2026' };

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Test setup: a person's password, as `studio password set` would write it. */
export async function givePassword(database: string, email: string, password: string) {
  const digest = await hashPassword(password);
  await fromOutside(database, (db) =>
    db
      .updateTable('users')
      .set({ password_hash: digest, password_changed_at: new Date().toISOString() })
      .where('email', '=', email.toLowerCase())
      .execute(),
  );
}

/**
 * The OAuth suites' app: a test app (`openTestApp`) whose demo owner has OWNER's password, handed to `take` before the
 * file's tests.
 */
export function openOAuthTestApp(take: (app: TestApp) => void) {
  let app: TestApp;
  openTestApp((opened) => {
    app = opened.app;
  });
  beforeAll(async () => {
    await givePassword(app.database, OWNER.email, OWNER.password);
    take(app);
  });
}

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function read(res: Response): Promise<Res> {
  const text = await res.text();
  let json: any;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) json = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, json };
}

export async function registerClient(base: string, metadata: Record<string, unknown> = {}): Promise<Res> {
  return read(
    await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Test client', redirect_uris: [REDIRECT], ...metadata }),
    }),
  );
}

/** A registered client's id. */
export async function newClient(base: string, metadata: Record<string, unknown> = {}): Promise<string> {
  const res = await registerClient(base, metadata);
  expect(res.status, res.text).toBe(201);
  return res.json.client_id;
}

export function authorizeUrl(base: string, params: Record<string, string | string[] | undefined>): string {
  const url = new URL('/authorize', base);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
  }
  return url.href;
}

/** The usual parameters of an authorization request, for a client and a PKCE challenge. */
export const usual = (base: string, clientId: string, challenge: string) => ({
  response_type: 'code',
  client_id: clientId,
  redirect_uri: REDIRECT,
  code_challenge: challenge,
  code_challenge_method: 'S256',
  state: `state-${randomBytes(4).toString('hex')}`,
  resource: `${base}/mcp`,
});

export async function get(url: string, accept = 'text/html', cookie?: string): Promise<Res> {
  return read(await fetch(url, { redirect: 'manual', headers: { accept, ...(cookie ? { cookie } : {}) } }));
}

/** The session cookie a response sets (`studio_session=…`, as a browser sends it back), or undefined. */
export function sessionCookie(res: Res): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('studio_session=') && !/Max-Age=0/i.test(c));
  return set?.split(';')[0];
}

/** The headers of a form post from the server's own page by a browser holding `cookie`. */
export const signedIn = (base: string, cookie: string | undefined) => ({
  origin: new URL(base).origin,
  ...(cookie ? { cookie } : {}),
});

/** A form post as the browser sends it from one of the server's pages (its Origin unless told otherwise). */
export async function postForm(
  base: string,
  path: string,
  fields: Array<[string, string]>,
  headers: Record<string, string> = { origin: new URL(base).origin },
): Promise<Res> {
  return read(
    await fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** The signed hidden field of the page's form. */
export function formField(html: string): string {
  const m = /name="form" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no form on the page: ${html.slice(0, 500)}`);
  return m[1]!;
}

/** The studios the consent page offers: member id → studio name. */
export function studiosOffered(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(
    /name="member" id="member-\d+" value="([^"]+)"[^>]*><label[^>]*><span class="name">([^<]*)</g,
  ))
    out.set(m[1]!, m[2]!);
  return out;
}

/** The scopes the consent page offers (ticked). */
export const scopesOffered = (html: string) =>
  [...html.matchAll(/name="scope" id="scope-\d+" value="([^"]+)"/g)].map((m) => m[1]!);

export interface Consent {
  email: string;
  password: string;
  /** A session cookie the browser holds already: the consent page comes straight away, and no password is typed. */
  session?: string;
  /** The studio to choose, by name; the first offered when absent. */
  studio?: string;
  /** The scopes to leave ticked; all offered when absent. */
  scopes?: string[];
  decision?: 'approve' | 'deny';
}

/** Signs in (unless the browser holds a session) and decides on the consent page; answers the redirect back. */
export async function consent(base: string, url: string, c: Consent): Promise<URL> {
  const page = await get(url, 'text/html', c.session);
  expect(page.status, page.text).toBe(200);
  let shown = page;
  let cookie = c.session;
  if (!c.session) {
    shown = await postForm(base, '/authorize/sign-in', [
      ['form', formField(page.text)],
      ['email', c.email],
      ['password', c.password],
    ]);
    expect(shown.status, shown.text).toBe(200);
    cookie = sessionCookie(shown);
  }
  const studios = studiosOffered(shown.text);
  const member = c.studio ? [...studios].find(([, name]) => name === c.studio)?.[0] : [...studios.keys()][0];
  if (!member) throw new Error(`studio ${c.studio} is not offered: ${[...studios.values()].join(', ')}`);
  const decided = await postForm(
    base,
    '/authorize/decision',
    [
      ['form', formField(shown.text)],
      ['member', member],
      ...(c.scopes ?? scopesOffered(shown.text)).map((s): [string, string] => ['scope', s]),
      ['decision', c.decision ?? 'approve'],
    ],
    signedIn(base, cookie),
  );
  expect(decided.status, decided.text).toBe(303);
  return new URL(decided.headers.get('location')!);
}

export async function tokenRequest(base: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return read(
    await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** A refusal in OAuth's shape: the status, the standard code, a sentence, nothing internal, never cached. */
export function expectOAuthError(res: Res, status: number, error: string) {
  const where = `${res.status} ${res.text}`;
  expect(res.status, where).toBe(status);
  expect(res.headers.get('content-type') ?? '', where).toMatch(/^application\/json/);
  expect(res.json.error, where).toBe(error);
  expect(typeof res.json.error_description, where).toBe('string');
  expect(res.json.error_description.length, where).toBeGreaterThan(15);
  expectNoInternals(res.json);
}

/** The whole flow for a person: a code for a fresh client, and what the token exchange needs. */
export async function codeFor(base: string, c: Consent, extra: Record<string, string> = {}) {
  const clientId = await newClient(base);
  const { verifier, challenge } = pkce();
  const params = { ...usual(base, clientId, challenge), ...extra };
  const back = await consent(base, authorizeUrl(base, params), c);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code: ${back.href}`);
  return { clientId, verifier, code, back, state: params.state };
}

/**
 * The token request that exchanges a code (as `codeFor` answers it) the way a client does, with `fields` added or
 * replaced; a field given as undefined is left out of the request.
 */
export function exchangeCode(
  base: string,
  x: { clientId: string; code: string; verifier: string },
  fields: Record<string, string | undefined> = {},
) {
  const sent = {
    grant_type: 'authorization_code',
    client_id: x.clientId,
    code: x.code,
    code_verifier: x.verifier,
    redirect_uri: REDIRECT,
    resource: `${base}/mcp`,
    ...fields,
  };
  return tokenRequest(
    base,
    Object.fromEntries(Object.entries(sent).filter((e): e is [string, string] => e[1] !== undefined)),
  );
}

/** The refresh-token grant for `clientId`, with `extra` fields (a resource, a narrower scope). */
export const refreshGrant = (
  base: string,
  clientId: string,
  refreshToken: string,
  extra: Record<string, string> = {},
) => tokenRequest(base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken, ...extra });

/** Tokens for a person through the whole flow. */
export async function tokensFor(base: string, c: Consent) {
  const x = await codeFor(base, c);
  const clientId = x.clientId;
  const res = await exchangeCode(base, x);
  expect(res.status, res.text).toBe(200);
  return {
    clientId,
    ...(res.json as { access_token: string; refresh_token: string; scope: string; expires_in: number }),
  };
}
