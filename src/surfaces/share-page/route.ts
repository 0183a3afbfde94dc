import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import { ServiceError } from '../../core/errors.js';
import { nowIso } from '../../core/ids.js';
import { openSharedDocument, type SharedClientDocument } from '../../domain/shares/shared-document.js';
import { documentPage, FAILED_PAGE, NO_PHOTOGRAPH_PAGE, SHARE_PAGE_HEADERS, UNAVAILABLE_PAGE } from './page.js';
import { photographPath, sendSharedPhotograph } from './photographs.js';
import { sendDecisionPage } from './decision/forms.js';

/** Whether a request is for a share link's page (`/s/…`), whatever follows. */
export const isSharePagePath = (url: string) => url.startsWith('/s/');

/** The one refusal of a share link's page: 403 and the fixed page, with the page's headers. */
export const sendUnavailable = (reply: FastifyReply) =>
  reply.headers(SHARE_PAGE_HEADERS).code(403).send(UNAVAILABLE_PAGE);

/**
 * `GET /s/<token>`: the page a share link opens, and `GET /s/<token>/photographs/<id>?variant=…`: the photographs
 * on it. Anonymous (the token is the authority; admission asks for nothing). Everything after `/s/` that is not a
 * photograph URL is the token, slashes included, so every malformed link gets the same refusal as an unknown, revoked
 * or expired one: 403 with one fixed page. The token is never logged: a failure logs the request id only.
 */
export function registerSharePage(app: FastifyInstance, rt: Runtime) {
  app.get<{ Params: { '*': string } }>('/s/*', async (req, reply) => {
    reply.headers(SHARE_PAGE_HEADERS);
    const rest = req.params['*'];
    const photograph = photographPath(rest);
    try {
      if (photograph) return await sendSharedPhotograph(rt, req, reply, photograph);
      const shared = await rt.store.readSnapshot((db, queryRow) => openSharedDocument(db, queryRow, rest, nowIso()));
      if (shared.estimateRevision) return await sendDecisionPage(rt, req, reply, rest);
      const page = documentPage(shared as SharedClientDocument);
      return reply.headers(page.headers).code(200).send(page.body);
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'FORBIDDEN') return sendUnavailable(reply);
      if (photograph && err instanceof ServiceError && err.code === 'NOT_FOUND')
        return reply.headers(SHARE_PAGE_HEADERS).code(404).send(NO_PHOTOGRAPH_PAGE);
      rt.log?.(`the share page failed (request ${req.id})`, err);
      return reply.headers(SHARE_PAGE_HEADERS).code(500).send(FAILED_PAGE);
    }
  });
}
