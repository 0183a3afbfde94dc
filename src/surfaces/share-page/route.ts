import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import { ServiceError } from '../../core/errors.js';
import { openShareLanding } from '../../domain/shares/landing.js';
import { SHARE_PAGE_HEADERS, sharePage, UNAVAILABLE_PAGE } from './page.js';

const FAILED_PAGE = UNAVAILABLE_PAGE.replace(
  'This link is no longer available',
  'This page could not be shown just now',
).replace('Ask the studio that sent it for a new link.', 'Please try again in a moment.');

/** Whether a request is for a share link's page (`/s/…`), whatever follows. */
export const isSharePagePath = (url: string) => url.startsWith('/s/');

/** The one refusal of a share link's page: 403 and the fixed page, with the page's headers. */
export const sendUnavailable = (reply: FastifyReply) =>
  reply.headers(SHARE_PAGE_HEADERS).code(403).send(UNAVAILABLE_PAGE);

/**
 * `GET /s/<token>`: the page a share link opens, anonymous (the token is the authority; admission asks for nothing).
 * Everything after `/s/` is the token, slashes included, so every malformed link gets the same refusal as an unknown,
 * revoked or expired one: 403 with one fixed page. The token is never logged: a failure logs the request id only.
 */
export function registerSharePage(app: FastifyInstance, rt: Runtime) {
  app.get<{ Params: { '*': string } }>('/s/*', async (req, reply) => {
    reply.headers(SHARE_PAGE_HEADERS);
    try {
      const landing = await rt.store.readSnapshot((_db, queryRow) => openShareLanding(queryRow, req.params['*']));
      return reply.code(200).send(sharePage(landing));
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'FORBIDDEN') return sendUnavailable(reply);
      rt.log?.(`the share page failed (request ${req.id})`, err);
      return reply.code(500).send(FAILED_PAGE);
    }
  });
}
