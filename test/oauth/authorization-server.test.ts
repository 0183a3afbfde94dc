/**
 * The authorization server over plain HTTP, on both stores: discovery (the 401 on /mcp, Protected Resource Metadata,
 * Authorization Server Metadata, validated with the MCP SDK's own schemas), dynamic client registration and its
 * bounds, the authorization request's refusals (told to the person before the redirect URI is known good, sent back
 * to the client after), the consent page's forms (Origin check, signed form field, sign-in, Deny, studio choice), and
 * the one sign-in it shares with `/login`: a live session goes straight to consent, an ended one does not, and
 * signing in on the consent page starts a session as `/login` does. The sign-in limit per address comes last: it
 * holds for both pages.
 */
import {
  OAuthClientInformationFullSchema,
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { describe, expect, it } from 'vitest';
import { trpc } from '../helpers/clients.js';
import { expectNoInternals } from '../helpers/e2e.js';
import { memberWithToken } from '../helpers/fixtures.js';
import type { TestApp } from '../helpers/in-process.js';
import { getPage, postForm as postPage } from '../members/page-client.js';
import {
  authorizeUrl,
  consent,
  expectOAuthError,
  formField,
  get,
  givePassword,
  OWNER,
  newClient,
  pkce,
  postForm,
  REDIRECT,
  registerClient,
  type Res,
  scopesOffered,
  sessionCookie,
  signedIn as fromPage,
  studiosOffered,
  usual,
  openOAuthTestApp,
} from './oauth-http.js';

let app: TestApp;
let base: string;

openOAuthTestApp((opened) => {
  app = opened;
  base = opened.url;
});

describe('discovery', () => {
  it('/mcp without a token answers 401 naming its Protected Resource Metadata, in the same problem shape as before', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="studio", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await res.json()) as any).code).toBe('UNAUTHENTICATED');

    const refused = await fetch(`${base}/mcp`, { method: 'POST', headers: { authorization: 'Bearer mcp_at_nothing' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${base}/.well-known/`);
    // The REST API is no OAuth resource: its challenge names no metadata.
    const rest = await fetch(`${base}/v1/projects`);
    expect(rest.headers.get('www-authenticate')).toBe('Bearer realm="studio"');
  });

  it('serves Protected Resource Metadata at the RFC 9728 path and the root, for the /mcp resource', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await get(`${base}${path}`, 'application/json');
      expect(res.status, path).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const prm = OAuthProtectedResourceMetadataSchema.parse(res.json);
      expect(prm.resource).toBe(`${base}/mcp`);
      expect(prm.authorization_servers).toEqual([base]);
      expect(prm.scopes_supported).toContain('projects:read');
      expect(prm.bearer_methods_supported).toEqual(['header']);
    }
  });

  it('serves Authorization Server Metadata: code flow, S256 only, public clients, registration, iss', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/mcp']) {
      const res = await get(`${base}${path}`, 'application/json');
      expect(res.status, path).toBe(200);
      const as = OAuthMetadataSchema.parse(res.json);
      expect(as.issuer).toBe(base);
      expect(as.authorization_endpoint).toBe(`${base}/authorize`);
      expect(as.token_endpoint).toBe(`${base}/token`);
      expect(as.registration_endpoint).toBe(`${base}/register`);
      expect(as.revocation_endpoint).toBe(`${base}/revoke`);
      expect(as.code_challenge_methods_supported).toEqual(['S256']);
      expect(as.response_types_supported).toEqual(['code']);
      expect(as.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
      expect(as.token_endpoint_auth_methods_supported).toEqual(['none']);
      expect(res.json.authorization_response_iss_parameter_supported).toBe(true);
    }
    // Not an OpenID provider: no ID tokens, so no OpenID configuration.
    expect((await get(`${base}/.well-known/openid-configuration`, 'application/json')).status).toBe(404);
    // The form parser serves the OAuth routes only: elsewhere a form body is still 415.
    const elsewhere = await fetch(`${base}/api/trpc/suppliers.createSupplier`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
    });
    expect(elsewhere.status).toBe(415);
    const preflight = await fetch(`${base}/token`, { method: 'OPTIONS', headers: { origin: 'https://app.example' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('dynamic client registration', () => {
  it('registers a public client and answers it as registered (RFC 7591)', async () => {
    const res = await registerClient(base, {
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback', 'http://127.0.0.1:33418/cb', 'cursor://a.b/cb'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'none',
      jwks: { keys: [] },
      unknown_field: 'ignored',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const client = OAuthClientInformationFullSchema.parse(res.json);
    expect(client.client_id).toMatch(/^[0-9a-z]{26}$/);
    expect(client.client_secret).toBeUndefined();
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client.grant_types).toEqual(['authorization_code', 'refresh_token']);
    expect(client.redirect_uris).toHaveLength(3);
    expect(res.json).not.toHaveProperty('jwks');
    expect(res.json).not.toHaveProperty('unknown_field');
  });

  it('refuses metadata it will not keep, each with the standard code and a sentence', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ redirect_uris: undefined }, 'invalid_client_metadata'],
      [{ redirect_uris: [] }, 'invalid_client_metadata'],
      [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }, 'invalid_client_metadata'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['not a uri'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [`https://a.example/${'x'.repeat(2100)}`] }, 'invalid_redirect_uri'],
      [{ token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
      [{ grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [{ response_types: ['token'] }, 'invalid_client_metadata'],
      [{ client_name: 'x'.repeat(101) }, 'invalid_client_metadata'],
      [{ client_name: 'line\nbreak' }, 'invalid_client_metadata'],
      [{ client_uri: 'http://app.example' }, 'invalid_client_metadata'],
    ];
    for (const [metadata, error] of cases) expectOAuthError(await registerClient(base, metadata), 400, error);
    const notJson = await fetch(`${base}/register`, {
      method: 'POST',
      body: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).error).toBe('invalid_client_metadata');
    const huge = await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], pad: 'x'.repeat(40_000) }),
    });
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as any).error).toBe('invalid_request');
  });
});

describe('the authorization request', () => {
  it('tells the person, without redirecting, when the client or its redirect URI is not known good', async () => {
    const clientId = await newClient(base);
    const { challenge } = pkce();
    const unknown = await get(authorizeUrl(base, usual(base, 'nobody', challenge)), 'application/json');
    expectOAuthError(unknown, 400, 'invalid_client');
    const page = await get(authorizeUrl(base, usual(base, 'nobody', challenge)));
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('invalid_client');
    expect(page.headers.get('location')).toBeNull();

    const foreign = await get(
      authorizeUrl(base, { ...usual(base, clientId, challenge), redirect_uri: 'https://attacker.example/cb' }),
      'application/json',
    );
    expectOAuthError(foreign, 400, 'invalid_request');
    expect(foreign.headers.get('location')).toBeNull();
    // Loopback redirects may name another port (RFC 8252 §7.3), never another host or path.
    expect(
      (
        await get(
          authorizeUrl(base, { ...usual(base, clientId, challenge), redirect_uri: 'http://127.0.0.1:5555/callback' }),
        )
      ).status,
    ).toBe(200);
    for (const other of [
      'http://localhost:8976/callback',
      'http://127.0.0.1:8976/other',
      'http://127.0.0.1:8976/callback?x=1',
    ])
      expectOAuthError(
        await get(authorizeUrl(base, { ...usual(base, clientId, challenge), redirect_uri: other }), 'json'),
        400,
        'invalid_request',
      );
    const twice = await get(authorizeUrl(base, { ...usual(base, clientId, challenge), state: ['a', 'b'] }), 'json');
    expectOAuthError(twice, 400, 'invalid_request');
  });

  it('sends every other refusal back to the client with its state and iss', async () => {
    const clientId = await newClient(base);
    const { challenge } = pkce();
    const cases: Array<[Record<string, string | string[] | undefined>, string]> = [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ response_type: undefined }, 'invalid_request'],
      [{ resource: 'https://other.example/mcp' }, 'invalid_target'],
      [{ resource: `${base}/v1` }, 'invalid_target'],
      [{ resource: [`${base}/mcp`, 'https://other.example/mcp'] }, 'invalid_target'],
      [{ scope: 'projects:read launch:missiles' }, 'invalid_scope'],
    ];
    for (const [change, error] of cases) {
      const params = { ...usual(base, clientId, challenge), ...change };
      const res = await get(authorizeUrl(base, params));
      expect(res.status, JSON.stringify(change)).toBe(302);
      const back = new URL(res.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
      expect(back.searchParams.get('error'), JSON.stringify(change)).toBe(error);
      expect(back.searchParams.get('state')).toBe(params.state);
      expect(back.searchParams.get('iss')).toBe(base);
      expect(back.searchParams.get('error_description')!.length).toBeGreaterThan(15);
      expect(back.searchParams.has('code')).toBe(false);
    }
    // The resource may be left out (it is always this server's /mcp), or named with an upper-case scheme.
    for (const resource of [undefined, `${base.replace('http:', 'HTTP:')}/mcp`])
      expect((await get(authorizeUrl(base, { ...usual(base, clientId, challenge), resource }))).status).toBe(200);
  });
});

describe('the consent page', () => {
  it('is a scriptless page under a strict CSP that asks for email and password', async () => {
    const clientId = await newClient(base, { client_name: 'Claude <script>' });
    const page = await get(authorizeUrl(base, usual(base, clientId, pkce().challenge)));
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).not.toContain('<script');
    expect(page.text).toContain('“Claude &lt;script&gt;”');
    expect(page.text).toContain('autocomplete="current-password"');
    expect(page.text).toContain('127.0.0.1:8976');
  });

  it('accepts its forms only from its own pages, with an untampered form field', async () => {
    const clientId = await newClient(base);
    const page = await get(authorizeUrl(base, usual(base, clientId, pkce().challenge)));
    const fields: Array<[string, string]> = [
      ['form', formField(page.text)],
      ['email', OWNER.email],
      ['password', OWNER.password],
    ];
    const foreign: Array<Record<string, string>> = [
      {},
      { origin: 'https://attacker.example' },
      { origin: 'null' },
      { referer: 'https://attacker.example/x' },
    ];
    for (const headers of foreign) {
      const res = await postForm(base, '/authorize/sign-in', fields, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    // Without an Origin, a Referer from this server's own page is enough.
    expect((await postForm(base, '/authorize/sign-in', fields, { referer: `${base}/authorize?x=1` })).status).toBe(200);
    const [body, mac] = formField(page.text).split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), step: 'consent', userId: 'x' }),
    ).toString('base64url');
    const tampered = await postForm(base, '/authorize/sign-in', [
      ['form', `${forged}.${mac}`],
      ['email', OWNER.email],
      ['password', OWNER.password],
    ]);
    expect(tampered.status).toBe(400);
    expect(tampered.text).toContain('expired');
    // A sign-in form is not a consent form.
    const skipped = await postForm(base, '/authorize/decision', [
      ['form', formField(page.text)],
      ['decision', 'approve'],
    ]);
    expect(skipped.status).toBe(400);
  });

  it('says when the email and password do not match, keeping the email', async () => {
    const clientId = await newClient(base);
    const page = await get(authorizeUrl(base, usual(base, clientId, pkce().challenge)));
    const res = await postForm(base, '/authorize/sign-in', [
      ['form', formField(page.text)],
      ['email', OWNER.email],
      ['password', 'not the password'],
    ]);
    expect(res.status).toBe(401);
    expect(res.text).toContain('role="alert"');
    expect(res.text).toContain(`value="${OWNER.email}"`);
    expect(res.text).not.toContain('name="member"');
  });

  it('offers the person’s studios and the scopes asked; Deny sends access_denied back with the state', async () => {
    const second = await fetch(`${base}/api/trpc/account.createStudio`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rowe Contract', currency: 'GBP', commandKey: crypto.randomUUID() }),
    });
    expect(second.status).toBe(200);
    const clientId = await newClient(base);
    const params = { ...usual(base, clientId, pkce().challenge), scope: 'projects:read pricing:read offline_access' };
    const page = await get(authorizeUrl(base, params));
    const signedIn = await postForm(base, '/authorize/sign-in', [
      ['form', formField(page.text)],
      ['email', OWNER.email.toUpperCase()],
      ['password', OWNER.password],
    ]);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect([...studiosOffered(signedIn.text).values()].sort()).toEqual(
      ['Hartley & Rowe Interiors', 'Rowe Contract'].map((n) => n.replace('&', '&amp;')).sort(),
    );
    expect(scopesOffered(signedIn.text)).toEqual(['projects:read', 'pricing:read']);
    expect(signedIn.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:8976");

    const back = await consent(base, authorizeUrl(base, params), { ...OWNER, decision: 'deny' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(params.state);
    expect(back.searchParams.get('iss')).toBe(base);
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('refuses an approval without a studio of the person’s or without any scope, and a form used twice', async () => {
    const other = await memberWithToken(app.database, 'designer');
    const clientId = await newClient(base);
    const page = await get(authorizeUrl(base, usual(base, clientId, pkce().challenge)));
    const signedIn = await postForm(base, '/authorize/sign-in', [
      ['form', formField(page.text)],
      ['email', OWNER.email],
      ['password', OWNER.password],
    ]);
    const form = formField(signedIn.text);
    const browser = fromPage(base, sessionCookie(signedIn));
    const [member] = studiosOffered(signedIn.text).keys();
    // An approval as the consent form sends it, for a studio and (unless none is ticked) one scope.
    const approve = (asMember: string, scope?: string) =>
      postForm(
        base,
        '/authorize/decision',
        [
          ['form', form],
          ['member', asMember],
          ...(scope ? [['scope', scope] as [string, string]] : []),
          ['decision', 'approve'],
        ],
        browser,
      );
    const notMine = await approve(other.memberId, 'projects:read');
    expect(notMine.status).toBe(400);
    expect(notMine.text).toContain('Choose one of your studios');
    const none = await approve(member!);
    expect(none.status).toBe(400);
    expect(none.text).toContain('Tick at least one');
    const ok = await approve(member!, 'projects:read');
    expect(ok.status).toBe(303);
    expect(new URL(ok.headers.get('location')!).searchParams.get('code')).toMatch(/^mcp_code_/);
    // The form is spent: the same approval again is refused.
    const again = await approve(member!, 'projects:read');
    expect(again.status).toBe(400);
    expectNoInternals(again.text);
  });
});

/** Signs in at `/login` as a browser would; answers the page it lands on, with the cookies the browser then holds. */
async function signInAtLogin(email: string, password: string) {
  const form = await getPage(`${base}/login`);
  const done = await postPage(`${base}/login`, { form_token: form.formToken!, email, password }, form.cookies);
  expect(done.status, done.html).toBe(303);
  return done;
}
/** The session cookie a browser holds, as it sends it. */
const cookieOf = (cookies: Map<string, string>) => `studio_session=${cookies.get('studio_session')}`;

/** The sign-in form, not the consent form. */
function expectSignInForm(res: Res, status = 200) {
  expect(res.status, res.text).toBe(status);
  expect(res.text).toContain('name="password"');
  expect(res.text).not.toContain('name="member"');
  expect(res.text).not.toContain('value="approve"');
}

const approval = (page: string, member: string): Array<[string, string]> => [
  ['form', formField(page)],
  ['member', member],
  ['scope', 'projects:read'],
  ['decision', 'approve'],
];

describe('one sign-in with /login', () => {
  it('a browser signed in at /login gets the consent page straight away, and a code at Allow', async () => {
    const cookie = cookieOf((await signInAtLogin(OWNER.email, OWNER.password)).cookies);
    const params = usual(base, await newClient(base), pkce().challenge);
    const page = await get(authorizeUrl(base, params), 'text/html', cookie);
    expect(page.status, page.text).toBe(200);
    expect(page.text).not.toContain('name="password"');
    expect(page.text).toContain(`Signed in as <strong>${OWNER.email}</strong>`);
    expect(page.text).toContain('Not you? Sign out and use another account');
    expect(page.headers.getSetCookie()).toEqual([]);
    // The same protections as the page after a password: no script, never framed, forms to here and the client only.
    expect(page.text).not.toContain('<script');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:8976");
    expect(page.headers.get('content-security-policy')).not.toContain('script-src');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const [member] = studiosOffered(page.text).keys();
    // The form is bound to the session that showed it: without its cookie (another browser) it asks for a sign-in,
    // from another site it is refused; neither issues a code.
    expectSignInForm(await postForm(base, '/authorize/decision', approval(page.text, member!)), 401);
    const foreign = { origin: 'https://attacker.example', cookie };
    expect((await postForm(base, '/authorize/decision', approval(page.text, member!), foreign)).status).toBe(403);
    const ok = await postForm(base, '/authorize/decision', approval(page.text, member!), fromPage(base, cookie));
    expect(ok.status, ok.text).toBe(303);
    const back = new URL(ok.headers.get('location')!);
    expect(back.searchParams.get('code')).toMatch(/^mcp_code_/);
    expect(back.searchParams.get('state')).toBe(params.state);
  });

  it('an ended session gets the sign-in form: signed out at /logout, by “Not you?”, or by a password set since', async () => {
    const clientId = await newClient(base);
    const url = () => authorizeUrl(base, usual(base, clientId, pkce().challenge));

    const first = await signInAtLogin(OWNER.email, OWNER.password);
    const account = await getPage(`${base}/login`, first.cookies);
    const loggedOut = await postPage(`${base}/logout`, { form_token: account.formToken! }, new Map(first.cookies));
    expect(loggedOut.status).toBe(303);
    expectSignInForm(await get(url(), 'text/html', cookieOf(first.cookies)));

    const second = cookieOf((await signInAtLogin(OWNER.email, OWNER.password)).cookies);
    const shown = await get(url(), 'text/html', second);
    const [member] = studiosOffered(shown.text).keys();
    const signOut: Array<[string, string]> = [['form', formField(shown.text)]];
    const forged = await postForm(base, '/authorize/sign-out', signOut, {
      origin: 'https://attacker.example',
      cookie: second,
    });
    expect(forged.status).toBe(403);
    expect(studiosOffered((await get(url(), 'text/html', second)).text).size).toBeGreaterThan(0);
    const notMe = await postForm(base, '/authorize/sign-out', signOut, fromPage(base, second));
    expectSignInForm(notMe);
    expect(notMe.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^studio_session=; .*Max-Age=0/));
    expectSignInForm(await get(url(), 'text/html', second));
    // The consent page shown before can no longer approve.
    const late = await postForm(base, '/authorize/decision', approval(shown.text, member!), fromPage(base, second));
    expectSignInForm(late, 401);
    expect(late.text).toContain('no longer signed in');

    const third = cookieOf((await signInAtLogin(OWNER.email, OWNER.password)).cookies);
    expect(studiosOffered((await get(url(), 'text/html', third)).text).size).toBeGreaterThan(0);
    await givePassword(app.database, OWNER.email, OWNER.password);
    expectSignInForm(await get(url(), 'text/html', third));
  });

  it('a membership removed is no choice on the consent page, nor at Allow', async () => {
    const designer = await memberWithToken(app.database, 'designer');
    const email = `designer-${designer.userId}@example.test`;
    await givePassword(app.database, email, 'designer-password-1');
    const cookie = cookieOf((await signInAtLogin(email, 'designer-password-1')).cookies);
    const url = authorizeUrl(base, usual(base, await newClient(base), pkce().challenge));
    const shown = await get(url, 'text/html', cookie);
    expect([...studiosOffered(shown.text).keys()]).toEqual([designer.memberId]);
    await trpc(base, app.token).members.removeStudioMember.mutate({ memberId: designer.memberId, confirm: true });
    const late = await postForm(
      base,
      '/authorize/decision',
      approval(shown.text, designer.memberId),
      fromPage(base, cookie),
    );
    expect(late.status).toBe(400);
    expect(late.text).toContain('Choose one of your studios');
    expect(late.headers.get('location')).toBeNull();
    const again = await get(url, 'text/html', cookie);
    expect(studiosOffered(again.text).size).toBe(0);
    expect(again.text).toContain('not a member of any studio');
    expect(again.text).not.toContain('value="approve"');
  });

  it('signing in on the consent page starts a session as /login does, and the next connection skips the sign-in', async () => {
    const page = await get(authorizeUrl(base, usual(base, await newClient(base), pkce().challenge)));
    expect(page.headers.getSetCookie()).toEqual([]);
    const login = await signInAtLogin(OWNER.email, OWNER.password);
    const brought = cookieOf(login.cookies);
    const res = await postForm(
      base,
      '/authorize/sign-in',
      [
        ['form', formField(page.text)],
        ['email', OWNER.email],
        ['password', OWNER.password],
      ],
      fromPage(base, brought),
    );
    expect(res.status, res.text).toBe(200);
    expect(studiosOffered(res.text).size).toBeGreaterThan(0);
    const set = res.headers.getSetCookie().filter((c) => c.startsWith('studio_session='));
    expect(set).toHaveLength(1);
    expect(set[0]).toMatch(/^studio_session=session_[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const maxAge = Number(/Max-Age=(\d+)/.exec(set[0]!)![1]);
    expect(maxAge).toBeGreaterThan(11 * 3600);
    expect(maxAge).toBeLessThanOrEqual(12 * 3600);
    // Exactly the cookie /login sets, but for its secret and the seconds left.
    const shape = (c: string) => c.replace(/=session_[^;]+/, '=…').replace(/Max-Age=\d+/, 'Max-Age=…');
    expect(shape(set[0]!)).toBe(shape(login.setCookies.find((c) => c.startsWith('studio_session='))!));
    // A new session, never the one the browser brought: that one has ended.
    const cookie = sessionCookie(res)!;
    expect(cookie).not.toBe(brought);
    const elsewhere = authorizeUrl(base, usual(base, await newClient(base), pkce().challenge));
    expectSignInForm(await get(elsewhere, 'text/html', brought));
    // The next connection goes straight to consent, through the shared helper as a client's test would use it.
    const back = await consent(base, elsewhere, { ...OWNER, session: cookie });
    expect(back.searchParams.get('code')).toMatch(/^mcp_code_/);
    const account = await getPage(`${base}/login`, new Map([['studio_session', cookie.split('=')[1]!]]));
    expect(account.html).toContain('Signed in as');
  });
});

describe('sign-in limits', () => {
  it('an address that tries too many sign-ins is asked to wait (429 with Retry-After), whatever the emails and page', async () => {
    const clientId = await newClient(base);
    const page = await get(authorizeUrl(base, usual(base, clientId, pkce().challenge)));
    const form = formField(page.text);
    let refused: Awaited<ReturnType<typeof postForm>> | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await postForm(base, '/authorize/sign-in', [
        ['form', form],
        ['email', `nobody-${i}@example.test`],
        ['password', 'not a password anyone has'],
      ]);
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(401);
    }
    expect(refused, 'no sign-in was refused').toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused!.text).toContain('Too many sign-ins from this address');
    // One limit for every page that checks a password: /login from the same address waits too.
    const login = await getPage(`${base}/login`);
    const atLogin = await postPage(
      `${base}/login`,
      { form_token: login.formToken!, email: OWNER.email, password: OWNER.password },
      login.cookies,
    );
    expect(atLogin.status).toBe(429);
    expect(atLogin.html).toContain('Too many sign-ins from this address');
  });
});
