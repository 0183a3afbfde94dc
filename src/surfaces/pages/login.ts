import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import { membershipsOf } from '../../domain/members/members.js';
import { endSession, startSession } from '../../domain/people/sessions.js';
import { checkSignIn, type SignInResult } from '../../domain/people/sign-in.js';
import { html } from '../share-page/html.js';
import { problem, sendPage } from './layout.js';
import {
  formBody,
  formRefusal,
  hasControlCharacters,
  signInCookies,
  signOutCookies,
  type Visit,
  visit,
} from './visit.js';

/** The one answer to a wrong password and an unknown address alike: it never says which. */
export const SIGN_IN_REFUSED = 'The email address or password is not right.';

/** The sentence and status of a locked address (checkSignIn's throttle): 429, with when to try again. */
export function lockedAnswer(reply: FastifyReply, result: Extract<SignInResult, { reason: 'locked' }>) {
  reply.header('retry-after', String(result.retryAfterSeconds));
  const minutes = Math.max(1, Math.ceil(result.retryAfterSeconds / 60));
  return `Too many attempts to sign in with this address. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}

/**
 * Where to go after signing in: a path on this server only (`/oauth/authorize?…`), never another site, so a link to
 * the sign-in page cannot send a person elsewhere once they have signed in.
 */
export function localPath(next: string | null | undefined): string | undefined {
  if (!next || next.length > 2048 || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return undefined;
  return hasControlCharacters(next) || next.includes('\\') ? undefined : next;
}

function signInForm(v: Visit, opts: { email?: string; problem?: string; next?: string | undefined } = {}) {
  return html`<h1>Sign in</h1>
${problem(opts.problem)}
<form method="post" action="/login">
<input type="hidden" name="form_token" value="${v.formToken}">
${opts.next ? html`<input type="hidden" name="next" value="${opts.next}">` : null}
<label>Email address
<input type="email" name="email" autocomplete="username" required maxlength="254" value="${opts.email ?? ''}">
</label>
<label>Password
<input type="password" name="password" autocomplete="current-password" required maxlength="256">
</label>
<button type="submit">Sign in</button>
</form>`;
}

async function signedInPage(rt: Runtime, v: Visit) {
  const session = v.session!;
  const studios = await membershipsOf(rt.store.readDb, session.userId);
  return html`<h1>Signed in as ${session.name}</h1>
<p>${session.email}</p>
${
  studios.length
    ? html`<p>You are a member of:</p>
<ul class="studios">${studios.map((s) => html`<li>${s.studioName} <span class="hint">(${s.role})</span></li>`)}</ul>`
    : html`<p>You are not a member of any studio.</p>`
}
<form method="post" action="/logout">
<input type="hidden" name="form_token" value="${v.formToken}">
<button type="submit">Sign out</button>
</form>`;
}

/**
 * `GET /login`: the sign-in form, or who is signed in and their studios. `POST /login`: email and password through
 * checkSignIn (its throttle: a locked address answers 429 with Retry-After), then a new session (never one the
 * browser brought: a fresh secret at every sign-in) and 303 to `next` (a path of this server) or back here.
 * `POST /logout`: the session is deleted and its cookie removed. Every POST must come from this server's own page
 * (formRefusal: origin and form token), else 403 and nothing happens.
 */
export function registerLoginPages(app: FastifyInstance, rt: Runtime) {
  app.get<{ Querystring: { next?: string } }>('/login', async (req, reply) => {
    const v = await visit(rt, req, reply);
    if (v.session) return sendPage(reply, 200, 'Signed in', await signedInPage(rt, v));
    return sendPage(reply, 200, 'Sign in', signInForm(v, { next: localPath(req.query.next) }));
  });

  app.post<{ Body: URLSearchParams }>('/login', async (req, reply) => {
    const v = await visit(rt, req, reply);
    const body = formBody(req.body);
    const email = (body.get('email') ?? '').slice(0, 320);
    const next = localPath(body.get('next'));
    const refused = formRefusal(rt, req, v, body);
    if (refused) return sendPage(reply, 403, 'Sign in', signInForm(v, { email, problem: refused, next }));
    const result = await checkSignIn(rt.store, email, body.get('password') ?? '');
    if (!result.ok) {
      if (result.reason === 'locked')
        return sendPage(reply, 429, 'Sign in', signInForm(v, { email, problem: lockedAnswer(reply, result), next }));
      reply.header('www-authenticate', 'Form realm="studio"');
      return sendPage(reply, 401, 'Sign in', signInForm(v, { email, problem: SIGN_IN_REFUSED, next }));
    }
    // The session the browser may have brought is ended: a sign-in always starts a session of its own.
    if (v.secret) await endSession(rt.store, v.secret);
    signInCookies(reply, rt.config, await startSession(rt.store, result.userId));
    return reply
      .code(303)
      .header('location', next ?? '/login')
      .header('cache-control', 'no-store')
      .send();
  });

  app.post<{ Body: URLSearchParams }>('/logout', async (req, reply) => {
    const v = await visit(rt, req, reply);
    const refused = formRefusal(rt, req, v, formBody(req.body));
    if (refused)
      return sendPage(
        reply,
        403,
        'Sign out',
        html`<h1>Sign out</h1>${problem(refused)}<p><a href="/login">Back</a></p>`,
      );
    if (v.secret) await endSession(rt.store, v.secret);
    signOutCookies(reply, rt.config);
    return reply.code(303).header('location', '/login').header('cache-control', 'no-store').send();
  });
}
