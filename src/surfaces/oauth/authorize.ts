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
import { checkSignIn } from '../../domain/people/sign-in.js';
import { redirectUriMatches } from '../../domain/oauth/redirect-uris.js';
import { Gate } from '../../files/gate.js';
import { type FormBody, formBody } from './responses.js';
import { openForm, sealForm } from './form-token.js';
import { consentPage, formTargetOf, noticePage, pageHeaders, signInPage } from './page.js';

/** What the sign-in form carries: the checked request. */
interface SignInForm {
  step: 'sign-in';
  request: AuthorizationRequest;
}
/** What the consent form carries: the request, who signed in, and this consent's id (one code per approval). */
interface ConsentForm {
  step: 'consent';
  request: AuthorizationRequest;
  userId: string;
  consentId: string;
}

const FORM_LIMIT = 64 * 1024;
/**
 * A password check costs about 32 MiB and 100 ms of a core (scrypt): at most two run at once in a process (the rest
 * wait their turn), and one address may try at most this many sign-ins in ten minutes, whatever the emails.
 */
const SIGN_INS_AT_ONCE = 2;
export const SIGN_INS_PER_ADDRESS = 30;
const SIGN_IN_WINDOW_MS = 10 * 60_000;

/**
 * The authorization endpoint (OAuth 2.1 §4.1) and its consent pages, server-rendered without script:
 * 1. `GET /authorize` checks the request; a bad client or redirect URI is told to the person (an HTML page, or JSON
 *    to a client that does not ask for HTML), anything else goes back to the client as an error redirect. A good one
 *    shows the sign-in form.
 * 2. `POST /authorize/sign-in` checks the email and password (throttled, src/domain/people/sign-in.ts) and shows the
 *    consent form: the person's studios, the scopes asked (each can be unticked), Allow and Deny.
 * 3. `POST /authorize/decision` redirects to the client with a code (Allow) or `access_denied` (Deny).
 * Each POST must come from a page of this server (Origin, or Referer when a browser sends no Origin, equal to the
 * base URL's origin) and carry the signed form field of the step before (form-token.ts). No session is kept: a
 * person signs in for each connection (a later version can honour a sign-in session instead).
 */
export function registerAuthorize(app: FastifyInstance, rt: Runtime) {
  const { config, store } = rt;
  const serverHost = () => new URL(config.baseUrl).host;
  const passwordChecks = new Gate(SIGN_INS_AT_ONCE);
  const recentSignIns = new Map<string, number[]>();
  /** Seconds until this address may try again, or 0 (and the attempt counted). */
  const signInWait = (address: string) => {
    const now = Date.now();
    const times = (recentSignIns.get(address) ?? []).filter((t) => now - t < SIGN_IN_WINDOW_MS);
    if (times.length >= SIGN_INS_PER_ADDRESS) return Math.ceil((times[0]! + SIGN_IN_WINDOW_MS - now) / 1000);
    times.push(now);
    recentSignIns.set(address, times);
    if (recentSignIns.size > 10_000)
      for (const [k, v] of recentSignIns) if (v.every((t) => now - t >= SIGN_IN_WINDOW_MS)) recentSignIns.delete(k);
    return 0;
  };

  const page = (reply: FastifyReply, status: number, body: string, formTarget?: string) =>
    reply.code(status).headers(pageHeaders(formTarget)).send(body);

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

  /** The POST came from a page this server served: its Origin (or, without one, its Referer) is the base URL's. */
  const fromOwnPage = (req: FastifyRequest) => {
    const own = new URL(config.baseUrl).origin;
    const origin = req.headers.origin;
    if (origin !== undefined) return origin === own;
    const referer = req.headers.referer;
    return referer !== undefined && URL.canParse(referer) && new URL(referer).origin === own;
  };
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
    const form: SignInForm = { step: 'sign-in', request: checked.request };
    return page(
      reply,
      200,
      signInPage({
        serverHost: serverHost(),
        client: checked.client,
        request: checked.request,
        form: await sealForm(config, form),
      }),
    );
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
    const again = async (status: number, error: string) =>
      page(
        reply,
        status,
        signInPage({
          serverHost: serverHost(),
          client,
          request: form.request,
          form: await sealForm(config, form),
          email: email ?? '',
          error,
        }),
      );
    if (!email || !password) return again(400, 'Enter your email and your password.');
    const wait = signInWait(req.ip);
    if (wait) {
      reply.header('retry-after', String(wait));
      return again(429, `Too many sign-ins from this address; try again in ${Math.ceil(wait / 60)} minutes.`);
    }
    const result = await passwordChecks.run(() => checkSignIn(store, email, password));
    if (!result.ok) {
      if (result.reason === 'locked') {
        reply.header('retry-after', String(result.retryAfterSeconds));
        return again(
          429,
          `Too many failed sign-ins for this email address; try again in ${Math.ceil(result.retryAfterSeconds / 60)} minutes.`,
        );
      }
      return again(401, 'That email and password do not match an account here; check both and try again.');
    }
    const consent: ConsentForm = { step: 'consent', request: form.request, userId: result.userId, consentId: newId() };
    return showConsent(reply, 200, consent, client);
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
