import type { AuthorizationRequest } from '../../domain/oauth/authorization-request.js';
import type { KnownClient } from '../../domain/oauth/clients.js';
import type { Membership } from '../../domain/oauth/memberships.js';
import { isLoopbackRedirect } from '../../domain/oauth/redirect-uris.js';
import { PERMISSION_DESCRIPTIONS } from '../../domain/studio/permissions-catalog.js';
import { ROLE_PERMISSIONS, type StudioPermission } from '../../core/permissions.js';
import { type Html, html } from '../share-page/html.js';
import { problem } from '../pages/layout.js';
import { signInForm } from '../pages/sign-in-form.js';

/**
 * The consent pages (`/authorize`): plain HTML, no script, in the account pages' layout and stylesheet (sendPage,
 * src/surfaces/pages/layout.ts), whose headers also name the client's redirect address as a form target (the decision
 * ends in a redirect there). Each page is its title and the body inside the layout.
 */
export interface OAuthPage {
  title: string;
  body: Html;
}

/** The CSP source for a redirect URI: its origin, or its scheme for a native app's private-use scheme. */
export function formTargetOf(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
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

const hiddenForm = (form: string) => html`<input type="hidden" name="form" value="${form}">`;

export interface SignInView {
  serverHost: string;
  client: KnownClient;
  request: AuthorizationRequest;
  form: string;
  email?: string;
  error?: string;
}

export function signInPage(v: SignInView): OAuthPage {
  const who = clientLabel(v.client);
  return {
    title: `Sign in to connect ${v.client.name ?? 'an MCP client'}`,
    body: html`<p class="eyebrow">Studio server · ${v.serverHost}</p>
<h1>Connect ${who} to your studio</h1>
<p>${who} asks to work in one of your studios through MCP, acting as you. Sign in to choose the studio and what it may do. It never sees your password.</p>
${signInForm({ action: '/authorize/sign-in', hidden: hiddenForm(v.form), email: v.email, problem: v.error })}
${returnNote(v.request)}`,
  };
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

/**
 * What the page offers: what the client asked for that the person's role can grant, in one of their studios at least
 * (a viewer is not shown pricing or workspace permissions no connection of theirs could hold).
 */
export function grantable(request: AuthorizationRequest, studios: readonly Membership[]): StudioPermission[] {
  const roles = new Set(studios.map((s) => s.role));
  return request.scopes.filter((scope) => [...roles].some((role) => ROLE_PERMISSIONS[role].includes(scope)));
}

export function consentPage(v: ConsentView): OAuthPage {
  const who = clientLabel(v.client);
  const offered = grantable(v.request, v.studios);
  const canApprove = v.studios.length > 0 && offered.length > 0;
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
    : problem(
        'You are not a member of any studio on this server, so there is nothing to connect. Deny, or ask a studio to invite you.',
      );
  return {
    title: `Allow ${v.client.name ?? 'an MCP client'} to act for you?`,
    body: html`<p class="eyebrow">Studio server · ${v.serverHost}</p>
<h1>Allow ${who} to act for you?</h1>
<p>Signed in as <strong>${v.email}</strong>. The connection works in the one studio you choose, and only until you or the studio end it.</p>
<form method="post" action="/authorize/sign-out" class="aside">
${hiddenForm(v.form)}
<button type="submit" class="link">Not you? Sign out and use another account</button>
</form>
<form method="post" action="/authorize/decision">
${hiddenForm(v.form)}
${problem(v.error, 'consent-problem')}
${studios}
${
  canApprove
    ? html`<fieldset>
<legend>What it may do</legend>
<p class="note">Never more than your role allows in the studio you choose: what your role lacks is not offered.</p>
${offered.map(
  (
    scope,
    i,
  ) => html`<div class="choice"><input type="checkbox" name="scope" id="scope-${i}" value="${scope}" checked aria-describedby="scope-${i}-about"><label for="scope-${i}"><code class="name">${scope}</code><span class="about" id="scope-${i}-about">${PERMISSION_DESCRIPTIONS[scope]}${scope === 'self' ? SELF_NOTE : null}</span></label></div>
`,
)}</fieldset>`
    : v.studios.length
      ? problem(
          `It asks only for what your role does not allow (${v.request.scopes.join(', ')}), so there is nothing to allow. Deny, or ask the studio for another role.`,
        )
      : null
}
${returnNote(v.request)}
<div class="actions">${canApprove ? html`<button type="submit" name="decision" value="approve">Allow</button>` : null}<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button></div>
</form>`,
  };
}

/** A page of one heading and one sentence (and the OAuth error code, for whoever reports it). */
export function noticePage(heading: string, sentence: string, code?: string): OAuthPage {
  return {
    title: heading,
    body: html`<h1>${heading}</h1>
<p>${sentence}</p>
${code ? html`<p class="note">Error code: <code>${code}</code></p>` : null}`,
  };
}
