import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import { checkAuthorizationRequest, type Params, redirectWith } from '../../domain/oauth/authorization-request.js';
import { issueCode } from '../../domain/oauth/codes.js';
import { OAuthError } from '../../domain/oauth/errors.js';
import { membershipsOf } from '../../domain/oauth/memberships.js';
import { SIGN_IN_REFUSED } from '../pages/sign-in-form.js';
import { limitedAnswer, type SignInLimits } from '../pages/sign-in-limits.js';
import { currentSession, signInBrowser, signOutBrowser } from '../pages/visit.js';
import {
  type ConsentForm,
  clientOf,
  consentFor,
  expired,
  foreign,
  fromOwnPage,
  type SignInForm,
  showConsent,
  showSignIn,
  tellPerson,
} from './authorize-pages.js';
import { openForm } from './form-token.js';
import { type FormBody, formBody } from './responses.js';
import { grantable } from './page.js';

const FORM_LIMIT = 64 * 1024;

/**
 * The authorization endpoint (OAuth 2.1 §4.1) and its consent pages, server-rendered without script, signed in by the
 * same sessions as `/login` (src/domain/people/sessions.ts, src/surfaces/pages/visit.ts):
 * 1. `GET /authorize` checks the request; a bad client or redirect URI is told to the person (an HTML page, or JSON
 *    to a client that does not ask for HTML), anything else goes back to the client as an error redirect. A good one
 *    shows the consent form to a person signed in already (their session cookie names a live session), else the
 *    sign-in form.
 * 2. `POST /authorize/sign-in` checks the email and password (the server's sign-in limits, shared with `/login`),
 *    starts a session as `/login` does (the same cookie), and shows the consent form: the person's studios, the scopes
 *    asked (each can be unticked), Allow and Deny, and "Not you?".
 * 3. `POST /authorize/decision` redirects to the client with a code (Allow: only while the session that showed the
 *    form is live in this browser) or `access_denied` (Deny).
 * 4. `POST /authorize/sign-out` ("Not you?") ends the browser's session and shows the sign-in form again.
 * Each POST must come from a page of this server (postedFrom: its Origin, or Referer when a browser sends no Origin;
 * one that names neither is refused) and carry the signed form field of the step before (form-token.ts).
 */
export function registerAuthorize(app: FastifyInstance, rt: Runtime, signIns: SignInLimits) {
  app.get('/authorize', (req, reply) => startAuthorization(rt, req, reply));
  app.post('/authorize/sign-in', { bodyLimit: FORM_LIMIT }, (req, reply) => signIn(rt, signIns, req, reply));
  app.post('/authorize/sign-out', { bodyLimit: FORM_LIMIT }, (req, reply) => signOut(rt, req, reply));
  app.post('/authorize/decision', { bodyLimit: FORM_LIMIT }, (req, reply) => decide(rt, req, reply));
}

// Step 1: a request is checked before anyone is asked anything; a person already signed in goes straight to consent.
async function startAuthorization(rt: Runtime, req: FastifyRequest, reply: FastifyReply) {
  const { config, store } = rt;
  const checked = await checkAuthorizationRequest(store, config, req.query as Params);
  if (!checked.ok) {
    if (!('redirectUri' in checked)) return tellPerson(req, reply, checked.error);
    return reply.headers({ 'cache-control': 'no-store' }).redirect(
      redirectWith(config, checked.redirectUri, {
        error: checked.error.errorCode,
        error_description: checked.error.message,
        state: checked.state,
      }),
      302,
    );
  }
  const current = await currentSession(rt, req);
  if (current)
    return showConsent(rt, reply, 200, {
      form: consentFor(checked.request, current.session),
      client: checked.client,
    });
  return showSignIn(rt, reply, 200, checked);
}

// Step 2: signing in here starts the same browser session as /login, under the same limits.
async function signIn(rt: Runtime, signIns: SignInLimits, req: FastifyRequest, reply: FastifyReply) {
  const { config, store } = rt;
  if (!fromOwnPage(config, req)) return foreign(config, reply);
  const body = formBody(req);
  const form = await openForm<SignInForm>(config, body.form);
  if (form?.step !== 'sign-in') return expired(reply);
  const client = await clientOf(rt, form.request);
  if (!client) return expired(reply);
  const email = text(body, 'email', 254);
  const password = text(body, 'password', 1024);
  const again = (status: number, error: string) =>
    showSignIn(rt, reply, status, { request: form.request, client }, { email: email ?? '', error });
  if (!email || !password) return again(400, 'Enter your email and your password.');
  const result = await signIns.check(store, req.ip, email, password);
  if (!result.ok) {
    if (result.reason === 'invalid') return again(401, SIGN_IN_REFUSED);
    const limited = limitedAnswer(reply, result);
    return again(limited.status, limited.text);
  }
  const session = await signInBrowser(rt, req, reply, result.userId);
  return showConsent(rt, reply, 200, {
    form: consentFor(form.request, { id: session.id, userId: result.userId }),
    client,
  });
}

// Step 4 ("Not you?"): the browser's session ends and the same request starts again at sign-in.
async function signOut(rt: Runtime, req: FastifyRequest, reply: FastifyReply) {
  const { config } = rt;
  if (!fromOwnPage(config, req)) return foreign(config, reply);
  const form = await openForm<ConsentForm>(config, formBody(req).form);
  if (form?.step !== 'consent') return expired(reply);
  const client = await clientOf(rt, form.request);
  if (!client) return expired(reply);
  await signOutBrowser(rt, req, reply);
  return showSignIn(rt, reply, 200, { request: form.request, client });
}

// Step 3: Deny goes back at once; Allow needs the form's session still live here, a studio and at least one scope.
async function decide(rt: Runtime, req: FastifyRequest, reply: FastifyReply) {
  const { config, store } = rt;
  if (!fromOwnPage(config, req)) return foreign(config, reply);
  const body = formBody(req);
  const form = await openForm<ConsentForm>(config, body.form);
  if (form?.step !== 'consent') return expired(reply);
  const client = await clientOf(rt, form.request);
  if (!client) return expired(reply);
  const { request } = form;
  const back = (params: Record<string, string | undefined>) =>
    reply
      .code(303)
      .headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
      .header('location', redirectWith(config, request.redirectUri, { ...params, state: request.state }))
      .send();
  const decision = text(body, 'decision', 10);
  if (decision === 'deny')
    return back({ error: 'access_denied', error_description: 'The person declined to connect this client.' });
  // Anything more needs the session the form was made for, still live here: signed out since (here or on /login),
  // a password set since, or another browser holding the form, and the person signs in again.
  const current = await currentSession(rt, req);
  if (!current || current.session.id !== form.sessionId)
    return showSignIn(
      rt,
      reply,
      401,
      { request, client },
      {
        error: 'You are no longer signed in here. Sign in again to decide.',
      },
    );
  const refuse = (error: string) => showConsent(rt, reply, 400, { form, client }, error);
  if (decision !== 'approve') return refuse('Choose Allow or Deny.');
  const { studios } = await membershipsOf(store, form.userId);
  const memberId = text(body, 'member', 64);
  const member = studios.find((s) => s.memberId === memberId);
  if (!member) return refuse('Choose one of your studios.');
  const ticked = new Set(values(body, 'scope'));
  // Only what was offered and the chosen studio's role can grant: a scope the person was never shown is never kept.
  const scopes = grantable(request, [member]).filter((s) => ticked.has(s));
  if (!scopes.length) return refuse('Tick at least one thing it may do, or choose Deny.');
  let code: string;
  try {
    code = await issueCode(store, { request, memberId: member.memberId, scopes, consentId: form.consentId });
  } catch (err) {
    // The same consent form sent twice (a double click, a reload): the first made the code, this one makes none.
    if (err instanceof OAuthError) return expired(reply);
    throw err;
  }
  return back({ code });
}

/** One text field of a form, bounded; a repeated or missing field is no value. */
function text(body: FormBody, name: string, max: number): string | undefined {
  const v = body[name];
  return typeof v === 'string' && v.length <= max ? v : undefined;
}

function values(body: FormBody, name: string): string[] {
  const v = body[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}
