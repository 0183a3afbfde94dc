import type { AuthorizationRequest } from '../../domain/oauth/authorization-request.js';
import type { KnownClient } from '../../domain/oauth/clients.js';
import type { Membership } from '../../domain/oauth/memberships.js';
import { isLoopbackRedirect } from '../../domain/oauth/redirect-uris.js';
import { PERMISSION_DESCRIPTIONS } from '../../domain/studio/permissions-catalog.js';
import { Html, html } from '../share-page/html.js';
import { CONSENT_STYLE, CONSENT_STYLE_HASH } from './style.js';

/**
 * The consent pages (`/authorize`): plain HTML, no script, one stylesheet allowed by its hash. Forms post only to
 * this server, and the last one may end in a redirect to the client, so `form-action` names that one address too.
 * `Referrer-Policy: same-origin` (not no-referrer, which would make the browser send `Origin: null` with the forms
 * and defeat the Origin check) keeps the page's address, with the request's state, from reaching the client.
 */
export function pageHeaders(formTarget?: string): Record<string, string> {
  const formAction = ["'self'", ...(formTarget ? [formTarget] : [])].join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src ${CONSENT_STYLE_HASH}; img-src data:; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`,
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'x-robots-tag': 'noindex, nofollow',
  };
}

/** The CSP source for a redirect URI: its origin, or its scheme for a native app's private-use scheme. */
export function formTargetOf(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

function layout(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${new Html(CONSENT_STYLE)}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`.value;
}

/** A client's name as it gave it, in quotes (it is the client's own claim), or a plain phrase when it gave none. */
const clientLabel = (client: KnownClient) => (client.name ? `“${client.name}”` : 'An unnamed MCP client');

/** Where the person will be sent back: the redirect URI's host, or the whole URI for a native app's own scheme. */
function destination(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : redirectUri;
}

function returnNote(request: AuthorizationRequest): Html {
  return html`<p class="note">When you decide, you are sent back to <strong>${destination(request.redirectUri)}</strong>.${
    isLoopbackRedirect(request.redirectUri)
      ? ' That address is on this computer: continue only if you started this connection from a program here just now.'
      : null
  }</p>`;
}

const errorLine = (id: string, error?: string) =>
  error ? html`<p class="error" id="${id}" role="alert">${error}</p>` : null;

export interface SignInView {
  serverHost: string;
  client: KnownClient;
  request: AuthorizationRequest;
  form: string;
  email?: string;
  error?: string;
}

export function signInPage(v: SignInView): string {
  const who = clientLabel(v.client);
  return layout(
    `Sign in to connect ${v.client.name ?? 'an MCP client'}`,
    html`<p class="eyebrow">Studio server · ${v.serverHost}</p>
<h1>Connect ${who} to your studio</h1>
<p>${who} asks to work in one of your studios through MCP, acting as you. Sign in to choose the studio and what it may do. It never sees your password.</p>
<form method="post" action="/authorize/sign-in">
<input type="hidden" name="form" value="${v.form}">
${errorLine('sign-in-error', v.error)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${v.email ?? ''}"${v.error ? html` aria-describedby="sign-in-error"` : null}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<div class="actions"><button type="submit">Sign in</button></div>
</form>
${returnNote(v.request)}`,
  );
}

export interface ConsentView {
  serverHost: string;
  client: KnownClient;
  request: AuthorizationRequest;
  form: string;
  email: string;
  studios: Membership[];
  error?: string;
}

const SELF_NOTE =
  ' Held only when it may also do everything else your role allows: an API token it makes carries all of it.';

export function consentPage(v: ConsentView): string {
  const who = clientLabel(v.client);
  const studios = v.studios.length
    ? html`<fieldset>
<legend>Studio</legend>
${v.studios.map(
  (
    s,
    i,
  ) => html`<div class="choice"><input type="radio" name="member" id="member-${i}" value="${s.memberId}" required${i === 0 ? html` checked` : null}><label for="member-${i}"><span class="name">${s.studioName}</span><span class="about">Your role: ${s.role}</span></label></div>
`,
)}</fieldset>`
    : html`<p class="error" role="alert">You are not a member of any studio on this server, so there is nothing to connect. Deny, or ask a studio to invite you.</p>`;
  return layout(
    `Allow ${v.client.name ?? 'an MCP client'} to act for you?`,
    html`<p class="eyebrow">Studio server · ${v.serverHost}</p>
<h1>Allow ${who} to act for you?</h1>
<p>Signed in as <strong>${v.email}</strong>. The connection works in the one studio you choose, and only until you or the studio end it.</p>
<form method="post" action="/authorize/decision">
<input type="hidden" name="form" value="${v.form}">
${errorLine('consent-error', v.error)}
${studios}
${
  v.studios.length
    ? html`<fieldset>
<legend>What it may do</legend>
<p class="note">Never more than your role allows in that studio: what your role lacks is left out.</p>
${v.request.scopes.map(
  (
    scope,
    i,
  ) => html`<div class="choice"><input type="checkbox" name="scope" id="scope-${i}" value="${scope}" checked aria-describedby="scope-${i}-about"><label for="scope-${i}"><code class="name">${scope}</code><span class="about" id="scope-${i}-about">${PERMISSION_DESCRIPTIONS[scope]}${scope === 'self' ? SELF_NOTE : null}</span></label></div>
`,
)}</fieldset>`
    : null
}
${returnNote(v.request)}
<div class="actions">${v.studios.length ? html`<button type="submit" name="decision" value="approve">Allow</button>` : null}<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button></div>
</form>`,
  );
}

/** A page of one heading and one sentence (and the OAuth error code, for whoever reports it). */
export function noticePage(heading: string, sentence: string, code?: string): string {
  return layout(
    heading,
    html`<h1>${heading}</h1>
<p>${sentence}</p>
${code ? html`<p class="note">Error code: <code>${code}</code></p>` : null}`,
  );
}
