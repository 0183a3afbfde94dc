import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../core/invoke.js';
import { type CallbackOutcome, completeAuthorization } from '../domain/accounting/callback.js';
import { callbackPath } from '../domain/accounting/connection.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const SENTENCES: Record<Exclude<CallbackOutcome, { ok: true }>['reason'], string> = {
  unknown_or_expired:
    'This link is unknown, already used or expired (it lasts ten minutes). Ask your agent to connect_accounting again.',
  declined: 'Xero was not connected: the request was declined in Xero. Nothing changed.',
  refused: 'Xero refused to finish the connection. Nothing changed; ask your agent to connect_accounting again.',
  no_organisation: 'Xero gave access to no organisation. Connect again and choose the organisation to use.',
};

/**
 * `GET /accounting/xero/callback`: where Xero sends the person after they agree (anonymous: the one-use state is the
 * authority). Answers a short page saying what happened; the code, state and tokens are never logged or shown.
 */
export function registerAccountingCallback(app: FastifyInstance, rt: Runtime) {
  app.get<{ Querystring: { state?: string; code?: string; error?: string } }>(
    callbackPath,
    { config: { anonymous: true } },
    async (req, reply) => {
      const outcome = await completeAuthorization(rt, req.query);
      const text = outcome.ok
        ? `Connected to Xero: ${outcome.organisationName}. You can close this page.`
        : SENTENCES[outcome.reason];
      return reply
        .headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
        .type('text/html; charset=utf-8')
        .code(outcome.ok ? 200 : 400)
        .send(`<!doctype html><meta charset="utf-8"><title>Xero</title><p>${escapeHtml(text)}</p>`);
    },
  );
}
