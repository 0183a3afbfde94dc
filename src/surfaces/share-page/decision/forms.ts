import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../core/errors.js';
import { nowIso } from '../../../core/ids.js';
import { invoke, type Runtime } from '../../../core/invoke.js';
import { sendCodeMail } from '../../../domain/share-verification/mail.js';
import { checkCode, requestCode } from '../../../domain/share-verification/verify.js';
import { readCookie } from '../../pages/cookies.js';
import type { AnyAction } from '../../../core/define-action.js';
import { FAILED_PAGE, SHARE_PAGE_HEADERS, UNAVAILABLE_PAGE } from '../page.js';
import { answersFrom } from './figures.js';
import { type DecisionState, decisionPage, decisionState, visitStep } from './page.js';
import type { Step } from './render.js';
import { VERIFICATION_RULES } from '../../../domain/share-verification/rules.js';

/** The share page's one refusal (see route.ts): 403 and the fixed page. */
const sendUnavailable = (reply: FastifyReply) => reply.headers(SHARE_PAGE_HEADERS).code(403).send(UNAVAILABLE_PAGE);

/** Form posts are small: a code, or a name, a note and one answer per piece. */
const FORM_BODY_LIMIT = 256 * 1024;

/** The verified session's cookie: `__Host-` under https (Secure, Path=/, no Domain), a plain name over http. */
const cookieName = (secure: boolean) => (secure ? '__Host-studio_share_verified' : 'studio_share_verified');
const isSecure = (rt: Runtime) => rt.config.baseUrl.startsWith('https:');

/**
 * HttpOnly (no script reads it; the page runs none), SameSite=Strict (no other site's form or link carries it, so a
 * decision can only be posted from this page), Secure under https, and gone after the session's 30 minutes.
 */
const sessionCookie = (rt: Runtime, secret: string) =>
  [
    `${cookieName(isSecure(rt))}=${secret}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    ...(isSecure(rt) ? ['Secure'] : []),
    `Max-Age=${VERIFICATION_RULES.sessionLifetimeMs / 1000}`,
  ].join('; ');

const secretOf = (rt: Runtime, req: FastifyRequest) => readCookie(req.headers.cookie, cookieName(isSecure(rt)));

/** The link's state for this request, read in one snapshot. */
const stateOf = (rt: Runtime, req: FastifyRequest, token: string) =>
  rt.store.readSnapshot((db, queryRow) => decisionState(db, queryRow, rt.config, token, secretOf(rt, req), nowIso()));

function show(reply: FastifyReply, state: DecisionState, step: Step, status = 200) {
  const page = decisionPage({ ...state.view, step });
  return reply.headers(page.headers).code(status).send(page.body);
}

/** A plain visit of a decide link's page (GET /s/<token>). */
export async function sendDecisionPage(rt: Runtime, req: FastifyRequest, reply: FastifyReply, token: string) {
  const state = await stateOf(rt, req, token);
  return show(reply, state, visitStep(state));
}

type Form = URLSearchParams;
interface Posted {
  rt: Runtime;
  /** decide_estimate, as the catalog declares it: the page decides through the same action as every surface. */
  decide: AnyAction;
}
type Handler = (env: Posted, req: FastifyRequest, reply: FastifyReply, state: DecisionState, form: Form) => unknown;

/** Emails a code (the write commits first, so it works when it arrives), then asks for it. */
const askCode: Handler = async ({ rt }, _req, reply, state) => {
  try {
    const sent = await rt.store.write((db) => requestCode(db, rt.config, state.share.shareId, nowIso()));
    await sendCodeMail(rt.config, sent.mail);
    return show(reply, state, { kind: 'verify', sentTo: sent.sentTo, codeSent: true });
  } catch (err) {
    return show(reply, state, { kind: 'verify', sentTo: state.sentTo, codeSent: false, alert: sentenceOf(err) }, 200);
  }
};

/** Checks the code: right, the session cookie is set and the page shows the answers; wrong, the try is counted. */
const verify: Handler = async ({ rt }, _req, reply, state, form) => {
  const code = (form.get('code') ?? '').trim();
  try {
    const checked = await rt.store.write((db) =>
      checkCode(db, state.share.shareId, /^\d{6}$/.test(code) ? code : '', nowIso()),
    );
    if (!checked.ok) {
      return show(reply, state, {
        kind: 'verify',
        sentTo: state.sentTo,
        codeSent: true,
        alert: checked.refusal.detail,
      });
    }
    reply.header('set-cookie', sessionCookie(rt, checked.secret));
    return reply.code(303).header('location', `/s/${state.view.token}`).send();
  } catch (err) {
    return show(reply, state, { kind: 'verify', sentTo: state.sentTo, codeSent: false, alert: sentenceOf(err) });
  }
};

/** The answers again, with the running total (the "Update the total" and "Change my answers" buttons). */
const answers: Handler = (_env, _req, reply, state, form) =>
  show(reply, state, chosen(state, form) ?? visitStep(state));

/** The confirmation screen: the answers, the total they accept, and a key for the one decision. */
const review: Handler = (_env, _req, reply, state, form) => {
  const step = chosen(state, form);
  if (!step) return show(reply, state, visitStep(state));
  if (!step.name.trim())
    return show(reply, state, { ...step, alert: 'Type your name: it is recorded with your decision.' });
  return show(reply, state, {
    kind: 'confirm',
    answers: step.answers,
    name: step.name,
    comment: step.comment,
    key: randomUUID(),
  });
};

/** The form's answers, when the holder is verified and the revision open; else undefined (show the visit's step). */
function chosen(state: DecisionState, form: Form): (Step & { kind: 'choose' }) | undefined {
  const visit = visitStep(state);
  if (visit.kind !== 'choose') return undefined;
  const answers = answersFrom(form, state.view.shared.revision);
  return { kind: 'choose', answers, name: form.get('name') ?? '', comment: form.get('comment') ?? '' };
}

/** Sends the decision through decide_estimate itself, standing on the page's verified session. */
const send: Handler = async ({ rt, decide }, req, reply, state, form) => {
  const revision = state.view.shared.revision;
  const answers = answersFrom(form, revision);
  const input = {
    token: state.view.token,
    revisionId: revision.revisionId,
    digest: revision.digest,
    outcome: 'by_line',
    lines: revision.pieces.map((p) => ({ pieceId: p.pieceId, outcome: answers.get(p.pieceId) })),
    deciderName: form.get('name') ?? '',
    comment: form.get('comment') ?? '',
    verifiedSession: secretOf(rt, req) ?? '',
    idempotencyKey: form.get('key') ?? '',
  };
  try {
    await invoke(rt, decide, input, { requestId: req.id });
    return reply.code(303).header('location', `/s/${state.view.token}`).send();
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'FORBIDDEN') return sendUnavailable(reply);
    const fresh = await stateOf(rt, req, state.view.token);
    const step = visitStep(fresh);
    const alert = sentenceOf(err);
    if (step.kind === 'verify')
      return show(reply, fresh, {
        ...step,
        codeSent: err instanceof ServiceError && err.code === 'VERIFICATION_REQUIRED',
        alert,
      });
    if (step.kind === 'choose')
      return show(reply, fresh, { ...step, answers, name: input.deciderName, comment: input.comment, alert });
    return show(reply, fresh, step);
  }
};

const sentenceOf = (err: unknown) =>
  err instanceof ServiceError ? err.detail : 'Something went wrong on our side; please try again in a moment.';

const HANDLERS: Readonly<Record<string, Handler>> = { code: askCode, verify, answers, review, decision: send };

/**
 * The forms of a decide link's page: `POST /s/<token>/<step>` for code, verify, answers, review and decision, in a
 * scope of their own that reads form posts. Every token that does not open a decide link gets the share page's one
 * refusal; so does a step that does not exist.
 */
export async function registerDecisionForms(app: FastifyInstance, rt: Runtime, actions: readonly AnyAction[]) {
  const decide = actions.find((a) => a.name === 'decide_estimate');
  if (!decide) return;
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, new URLSearchParams(body as string)),
    );
    scope.post<{ Params: { '*': string } }>('/s/*', async (req, reply) => {
      reply.headers(SHARE_PAGE_HEADERS);
      const rest = req.params['*'];
      const slash = rest.lastIndexOf('/');
      const handler = slash > 0 ? HANDLERS[rest.slice(slash + 1)] : undefined;
      const form = req.body instanceof URLSearchParams ? req.body : new URLSearchParams();
      try {
        const state = await stateOf(rt, req, handler ? rest.slice(0, slash) : '');
        if (!handler) return sendUnavailable(reply);
        return await handler({ rt, decide }, req, reply, state, form);
      } catch (err) {
        if (err instanceof ServiceError && err.code === 'FORBIDDEN') return sendUnavailable(reply);
        rt.log?.(`the decision page failed (request ${req.id})`, err);
        return reply.code(500).send(FAILED_PAGE);
      }
    });
  });
}
