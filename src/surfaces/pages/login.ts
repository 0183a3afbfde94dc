import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import { membershipsOf } from '../../domain/members/members.js';
import { html } from '../share-page/html.js';
import { problem, sendPage } from './layout.js';
import { SIGN_IN_REFUSED, signInForm } from './sign-in-form.js';
import { limitedAnswer, type SignInLimits } from './sign-in-limits.js';
import {
  formBody,
  formRefusal,
  hasControlCharacters,
  signInBrowser,
  signOutBrowser,
  type Visit,
  visit,
} from './visit.js';

/**
 * Where to go after signing in: a path on this server only (`/authorize?…`), never another site, so a link to
 * the sign-in page cannot send a person elsewhere once they have signed in. Characters outside printable ASCII are
 * percent-encoded (as UTF-8), so the path always fits in a Location header (`/日本` is `/%E6%97%A5%E6%9C%AC`).
 */
export function localPath(next: string | null | undefined): string | undefined {
  if (!next || next.length > 2048 || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return undefined;
  if (hasControlCharacters(next) || next.includes('\\')) return undefined;
  try {
    return next.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));
  } catch {
    // A lone surrogate has no UTF-8 form: no such path.
    return undefined;
  }
}

function signInPage(v: Visit, opts: { email?: string; problem?: string; next?: string | undefined } = {}) {
  return html`<h1>Sign in</h1>
${signInForm({
  action: '/login',
  hidden: html`<input type="hidden" name="form_token" value="${v.formToken}">
${opts.next ? html`<input type="hidden" name="next" value="${opts.next}">` : null}`,
  email: opts.email,
  problem: opts.problem,
})}`;
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
 * the server's sign-in limits (per email address and per client address: 429 with Retry-After), then a new session
 * (signInBrowser: never one the browser brought) and 303 to `next` (a path of this server) or back here.
 * `POST /logout`: the session is deleted and its cookie removed. Every POST must come from this server's own page
 * (formRefusal: origin and form token), else 403 and nothing happens.
 */
export function registerLoginPages(app: FastifyInstance, rt: Runtime, signIns: SignInLimits) {
  app.get<{ Querystring: { next?: string } }>('/login', async (req, reply) => {
    const v = await visit(rt, req, reply);
    if (v.session) return sendPage(reply, 200, 'Signed in', await signedInPage(rt, v));
    return sendPage(reply, 200, 'Sign in', signInPage(v, { next: localPath(req.query.next) }));
  });

  app.post<{ Body: URLSearchParams }>('/login', async (req, reply) => {
    const v = await visit(rt, req, reply);
    const body = formBody(req.body);
    const email = (body.get('email') ?? '').slice(0, 320);
    const next = localPath(body.get('next'));
    const refused = formRefusal(rt, req, v, body);
    if (refused) return sendPage(reply, 403, 'Sign in', signInPage(v, { email, problem: refused, next }));
    const result = await signIns.check(rt.store, req.ip, email, body.get('password') ?? '');
    if (!result.ok) {
      if (result.reason !== 'invalid') {
        const limited = limitedAnswer(reply, result);
        return sendPage(reply, limited.status, 'Sign in', signInPage(v, { email, problem: limited.text, next }));
      }
      reply.header('www-authenticate', 'Form realm="studio"');
      return sendPage(reply, 401, 'Sign in', signInPage(v, { email, problem: SIGN_IN_REFUSED, next }));
    }
    await signInBrowser(rt, req, reply, result.userId);
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
    await signOutBrowser(rt, req, reply);
    return reply.code(303).header('location', '/login').header('cache-control', 'no-store').send();
  });
}
