import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../core/errors.js';
import type { Runtime } from '../../core/invoke.js';
import { nowIso } from '../../core/ids.js';
import { acceptAsNewPerson, acceptAsSignedInPerson, type AcceptedOnPage } from '../../domain/invitations/accept.js';
import { type LiveInvitation, resolveInvitationToken } from '../../domain/invitations/open.js';
import {
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordProblem,
} from '../../domain/people/passwords.js';
import { html } from '../share-page/html.js';
import { problem, sendPage } from './layout.js';
import { limitedAnswer, type SignInLimits } from './sign-in-limits.js';
import { adoptSession, formBody, formRefusal, hasControlCharacters, type Visit, visit } from './visit.js';

/** Whether a request is for an invitation's page (`/invitations/…`), whatever follows. */
export const isInvitationPagePath = (url: string) => url.startsWith('/invitations/');

const REFUSED_TITLE = 'This invitation cannot be used';

/** The one refusal of an invitation's page: unknown, malformed, used, revoked, replaced and expired links alike. */
export const sendInvitationRefused = (reply: FastifyReply) =>
  sendPage(
    reply,
    403,
    REFUSED_TITLE,
    html`<h1>${REFUSED_TITLE}</h1>
<p>It was already accepted, revoked or replaced by a newer one, or it has expired. Ask the studio that invited you for a new invitation.</p>`,
  );

const article = (role: string) => (/^[aeiou]/.test(role) ? `an ${role}` : `a ${role}`);

function heading(inv: LiveInvitation) {
  return html`<h1>Join ${inv.studioName}</h1>
<p>${inv.inviterName || 'The studio'} invited <span class="fixed">${inv.email}</span> to join ${inv.studioName} as ${article(inv.role)}.</p>`;
}

const hiddenToken = (v: Visit) => html`<input type="hidden" name="form_token" value="${v.formToken}">`;

/**
 * The form anyone opening the link is shown, the same whether or not the address already has an account (the inviter
 * holds the link too, and must not learn that from the page): a new person gives a name and a password twice; someone
 * with an account types its password, and the rest is not needed. The server tells which when the form comes back.
 */
function joinForm(inv: LiveInvitation, v: Visit, opts: { name?: string; problem?: string } = {}) {
  return html`${heading(inv)}
${problem(opts.problem)}
<p>New here? Give your name and choose a password. Already have an account with this address? Type its password; your name and the second password are then not needed.</p>
<form method="post">
${hiddenToken(v)}
<input type="email" name="email" autocomplete="username" value="${inv.email}" hidden>
<label>Your name <span class="hint">if you are new here</span>
<input type="text" name="name" autocomplete="name" maxlength="100" value="${opts.name ?? ''}">
</label>
<label>Choose a password <span class="hint">at least ${PASSWORD_MIN_LENGTH} characters, or your account's password</span>
<input type="password" name="password" autocomplete="new-password" required maxlength="${PASSWORD_MAX_LENGTH}">
</label>
<label>The same password again <span class="hint">if you are new here</span>
<input type="password" name="password_again" autocomplete="new-password" maxlength="${PASSWORD_MAX_LENGTH}">
</label>
<button type="submit">Join ${inv.studioName}</button>
</form>`;
}

/** The invited person, signed in here already: one click. */
function signedInForm(inv: LiveInvitation, v: Visit, opts: { problem?: string } = {}) {
  return html`${heading(inv)}
${problem(opts.problem)}
<form method="post">
${hiddenToken(v)}
<p>You are signed in as ${v.session!.name}.</p>
<button type="submit">Join ${inv.studioName}</button>
</form>`;
}

/** An account without a password (made with an API token): it proves itself with that token, not on this page. */
function noPasswordNotice(inv: LiveInvitation) {
  return html`${heading(inv)}
<p>You already have an account with this address, without a password. Accept this invitation where you use your API token: ask your assistant to call accept_invitation with the token at the end of this page's address.</p>`;
}

function alreadyMember(name: string) {
  return html`<h1>You are already a member of ${name}</h1>
<p>This invitation was not needed, and is left unused. <a href="/login">Go to your account</a>.</p>`;
}

/** What the person typed as their name: trimmed, 1 to 100 characters, no control characters. */
function nameProblem(name: string): string | undefined {
  if (!name) return 'Give your name, as the studio will see it.';
  if ([...name].length > 100) return 'Give a name of at most 100 characters.';
  if (hasControlCharacters(name)) return 'Give your name without control characters.';
  return undefined;
}

async function open(rt: Runtime, token: string) {
  return rt.store.readSnapshot((_db, queryRow) => resolveInvitationToken(queryRow, token, nowIso()));
}

/**
 * `GET /invitations/<token>`: the page an invitation's link opens, one form whether or not the address has an account
 * (only the invited person, signed in already, is shown a one-click form). A new person gives their name and a
 * password (passwordProblem's rules) and becomes a member with the invited role; someone whose address already has an
 * account types its password instead (the server's sign-in limits apply). Either
 * way the person leaves signed in (a new session) and is sent to `/login`, which lists their studios. Everything after
 * `/invitations/` is the token, so every link that does not work gets the same 403 page. POSTs must come from this
 * page (formRefusal); the token is never logged.
 */
export function registerInvitationPage(app: FastifyInstance, rt: Runtime, signIns: SignInLimits) {
  app.get<{ Params: { '*': string } }>('/invitations/*', (req, reply) => showInvitation(rt, req, reply));
  app.post<{ Params: { '*': string }; Body: URLSearchParams }>('/invitations/*', (req, reply) =>
    answerInvitation(rt, signIns, req, reply),
  );
}

type InvitationRequest = FastifyRequest<{ Params: { '*': string } }>;

// The page: one form for everyone but the invited person already signed in.
async function showInvitation(rt: Runtime, req: InvitationRequest, reply: FastifyReply) {
  let inv: LiveInvitation;
  try {
    inv = await open(rt, req.params['*']);
  } catch (err) {
    return refusedOrFailed(rt, req, reply, err);
  }
  const v = await visit(rt, req, reply);
  // Only the invited person, signed in, is told anything about their account; everyone else sees one form.
  if (inv.person && v.session?.userId === inv.person.userId)
    return sendPage(reply, 200, `Join ${inv.studioName}`, signedInForm(inv, v));
  return sendPage(reply, 200, `Join ${inv.studioName}`, joinForm(inv, v));
}

// The form sent back: a new person's name and password, or an existing account's password (or session).
async function answerInvitation(
  rt: Runtime,
  signIns: SignInLimits,
  req: FastifyRequest<{ Params: { '*': string }; Body: URLSearchParams }>,
  reply: FastifyReply,
) {
  const token = req.params['*'];
  const body = formBody(req.body);
  let inv: LiveInvitation;
  try {
    inv = await open(rt, token);
  } catch (err) {
    return refusedOrFailed(rt, req, reply, err);
  }
  const v = await visit(rt, req, reply);
  const title = `Join ${inv.studioName}`;
  const refused = formRefusal(rt, req, v, body);
  try {
    let accepted: AcceptedOnPage | 'account_exists';
    if (!inv.person) {
      const name = (body.get('name') ?? '').trim();
      if (refused) return sendPage(reply, 403, title, joinForm(inv, v, { name, problem: refused }));
      const password = body.get('password') ?? '';
      const trouble =
        nameProblem(name) ??
        passwordProblem(password) ??
        (password !== body.get('password_again') ? 'The two passwords are not the same; type them again.' : undefined);
      if (trouble) return sendPage(reply, 400, title, joinForm(inv, v, { name, problem: trouble }));
      // Hashed before the write transaction opens: scrypt takes a tenth of a second, the writer none of it.
      accepted = await acceptAsNewPerson(rt.store, token, { name, passwordHash: await hashPassword(password) });
      if (accepted === 'account_exists') {
        const again = await open(rt, token);
        return sendPage(
          reply,
          409,
          title,
          joinForm(again, v, {
            problem: 'An account with this address was just made: type its password.',
          }),
        );
      }
    } else if (inv.person.hasPassword || v.session?.userId === inv.person.userId) {
      const signedIn = v.session?.userId === inv.person.userId;
      const form = (problemText: string) =>
        signedIn ? signedInForm(inv, v, { problem: problemText }) : joinForm(inv, v, { problem: problemText });
      if (refused) return sendPage(reply, 403, title, form(refused));
      let userId = signedIn ? v.session!.userId : undefined;
      if (!userId) {
        const result = await signIns.check(rt.store, req.ip, inv.email, body.get('password') ?? '');
        if (!result.ok) {
          const { status, text } =
            result.reason === 'invalid'
              ? { status: 401, text: 'That password is not right.' }
              : limitedAnswer(reply, result);
          return sendPage(reply, status, title, form(text));
        }
        userId = result.userId;
      }
      accepted = await acceptAsSignedInPerson(rt.store, token, userId);
    } else {
      return sendPage(reply, 409, title, noPasswordNotice(inv));
    }
    await adoptSession(rt, req, reply, accepted.session);
    return reply.code(303).header('location', '/login').header('cache-control', 'no-store').send();
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'ALREADY_MEMBER')
      return sendPage(reply, 409, title, alreadyMember(inv.studioName));
    return refusedOrFailed(rt, req, reply, err);
  }
}

function refusedOrFailed(rt: Runtime, req: FastifyRequest, reply: FastifyReply, err: unknown) {
  if (err instanceof ServiceError && err.code === 'FORBIDDEN') return sendInvitationRefused(reply);
  rt.log?.(`the invitation page failed (request ${req.id})`, err);
  return sendPage(
    reply,
    500,
    'This page could not be shown just now',
    html`<h1>This page could not be shown just now</h1><p>Please try again in a moment.</p>`,
  );
}
