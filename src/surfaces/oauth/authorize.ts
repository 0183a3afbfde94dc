import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import { newId } from '../../core/ids.js';
import {
  type AuthorizationRequest,
  checkAuthorizationRequest,
  type Params,
  redirectWith,
} from '../../domain/oauth/authorization-request.js';
import { findClient, type KnownClient } from '../../domain/oauth/clients.js';
import { issueCode } from '../../domain/oauth/codes.js';
import { OAuthError, ServerError } from '../../domain/oauth/errors.js';
import { membershipsOf } from '../../domain/oauth/memberships.js';
import { redirectUriMatches } from '../../domain/oauth/redirect-uris.js';
import { sendPage } from '../pages/layout.js';
import { postedFrom } from '../pages/origin.js';
import { SIGN_IN_REFUSED } from '../pages/sign-in-form.js';
import { limitedAnswer, type SignInLimits } from '../pages/sign-in-limits.js';
import { currentSession, signInBrowser, signOutBrowser } from '../pages/visit.js';
import { openForm, sealForm } from './form-token.js';
import { consentPage, formTargetOf, noticePage, type OAuthPage, signInPage } from './page.js';
import { type FormBody, formBody } from './responses.js';

/** What the sign-in form carries: the checked request. */
interface SignInForm {
  step: 'sign-in';
  request: AuthorizationRequest;
}
/**
 * What the consent form carries: the request, who is signed in and by which session (an approval needs that session
 * still live in this browser), and this consent's id (one code per approval).
 */
interface ConsentForm {
  step: 'consent';
  request: AuthorizationRequest;
  userId: string;
  sessionId: string;
  consentId: string;
}

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
  const { config, store } = rt;
  const serverHost = () => new URL(config.baseUrl).host;

  const page = (reply: FastifyReply, status: number, p: OAuthPage, formTarget?: string) =>
    sendPage(reply, status, p.title, p.body, formTarget);

  /** A failure before the client and its redirect URI are known good: shown, never redirected. */
  const tellPerson = (req: FastifyRequest, reply: FastifyReply, error: OAuthError) => {
    const status = error instanceof ServerError ? 500 : 400;
    if (!(req.headers.accept ?? '').includes('text/html'))
      return reply
        .code(status)
        .headers({ 'cache-control': 'no-store' })
        .type('application/json; charset=utf-8')
        .send(error.toResponseObject());
    return page(reply, status, noticePage('This connection cannot be made', error.message, error.errorCode));
  };

  const expired = (reply: FastifyReply) =>
    page(
      reply,
      400,
      noticePage(
        'This page has expired',
        'Sign-in pages work for ten minutes and once. Go back to the application you were connecting and start again.',
      ),
    );

  /** The POST came from a page this server served; a request that names no origin at all is not taken either. */
  const fromOwnPage = (req: FastifyRequest) => postedFrom(config, req) === 'own';
  const foreign = (reply: FastifyReply) =>
    page(
      reply,
      403,
      noticePage(
        'This form was sent from somewhere else',
        `Sign-in and consent forms are accepted only from pages of ${serverHost()}. Open the link from the application again.`,
      ),
    );

  /** The client of a form, still registered with the form's redirect URI (a form outlives nothing it names). */
  const clientOf = async (request: AuthorizationRequest): Promise<KnownClient | undefined> => {
    const client = await findClient(store, request.clientId);
    return client?.redirectUris.some((r) => redirectUriMatches(request.redirectUri, r)) ? client : undefined;
  };

  const showSignIn = async (
    reply: FastifyReply,
    status: number,
    request: AuthorizationRequest,
    client: KnownClient,
    opts: { email?: string; error?: string } = {},
  ) => {
    const form: SignInForm = { step: 'sign-in', request };
    return page(
      reply,
      status,
      signInPage({ serverHost: serverHost(), client, request, form: await sealForm(config, form), ...opts }),
    );
  };

  const showConsent = async (
    reply: FastifyReply,
    status: number,
    form: ConsentForm,
    client: KnownClient,
    error?: string,
  ) => {
    const { email, studios } = await membershipsOf(store, form.userId);
    return page(
      reply,
      status,
      consentPage({
        serverHost: serverHost(),
        client,
        request: form.request,
        form: await sealForm(config, form),
        email,
        studios,
        error,
      }),
      formTargetOf(form.request.redirectUri),
    );
  };

  /** A fresh consent form for the person a session signs in. */
  const consentFor = (request: AuthorizationRequest, session: { id: string; userId: string }): ConsentForm => ({
    step: 'consent',
    request,
    userId: session.userId,
    sessionId: session.id,
    consentId: newId(),
  });

  app.get('/authorize', async (req, reply) => {
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
    if (current) return showConsent(reply, 200, consentFor(checked.request, current.session), checked.client);
    return showSignIn(reply, 200, checked.request, checked.client);
  });

  app.post('/authorize/sign-in', { bodyLimit: FORM_LIMIT }, async (req, reply) => {
    if (!fromOwnPage(req)) return foreign(reply);
    const body = formBody(req);
    const form = await openForm<SignInForm>(config, body.form);
    if (form?.step !== 'sign-in') return expired(reply);
    const client = await clientOf(form.request);
    if (!client) return expired(reply);
    const email = text(body, 'email', 254);
    const password = text(body, 'password', 1024);
    const again = (status: number, error: string) =>
      showSignIn(reply, status, form.request, client, { email: email ?? '', error });
    if (!email || !password) return again(400, 'Enter your email and your password.');
    const result = await signIns.check(store, req.ip, email, password);
    if (!result.ok) {
      if (result.reason === 'invalid') return again(401, SIGN_IN_REFUSED);
      const limited = limitedAnswer(reply, result);
      return again(limited.status, limited.text);
    }
    const session = await signInBrowser(rt, req, reply, result.userId);
    return showConsent(reply, 200, consentFor(form.request, { id: session.id, userId: result.userId }), client);
  });

  app.post('/authorize/sign-out', { bodyLimit: FORM_LIMIT }, async (req, reply) => {
    if (!fromOwnPage(req)) return foreign(reply);
    const form = await openForm<ConsentForm>(config, formBody(req).form);
    if (form?.step !== 'consent') return expired(reply);
    const client = await clientOf(form.request);
    if (!client) return expired(reply);
    await signOutBrowser(rt, req, reply);
    return showSignIn(reply, 200, form.request, client);
  });

  app.post('/authorize/decision', { bodyLimit: FORM_LIMIT }, async (req, reply) => {
    if (!fromOwnPage(req)) return foreign(reply);
    const body = formBody(req);
    const form = await openForm<ConsentForm>(config, body.form);
    if (form?.step !== 'consent') return expired(reply);
    const client = await clientOf(form.request);
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
      return showSignIn(reply, 401, request, client, {
        error: 'You are no longer signed in here. Sign in again to decide.',
      });
    if (decision !== 'approve') return showConsent(reply, 400, form, client, 'Choose Allow or Deny.');
    const { studios } = await membershipsOf(store, form.userId);
    const memberId = text(body, 'member', 64);
    const member = studios.find((s) => s.memberId === memberId);
    if (!member) return showConsent(reply, 400, form, client, 'Choose one of your studios.');
    const ticked = new Set(values(body, 'scope'));
    const scopes = request.scopes.filter((s) => ticked.has(s));
    if (!scopes.length)
      return showConsent(reply, 400, form, client, 'Tick at least one thing it may do, or choose Deny.');
    let code: string;
    try {
      code = await issueCode(store, { request, memberId: member.memberId, scopes, consentId: form.consentId });
    } catch (err) {
      // The same consent form sent twice (a double click, a reload): the first made the code, this one makes none.
      if (err instanceof OAuthError) return expired(reply);
      throw err;
    }
    return back({ code });
  });
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
