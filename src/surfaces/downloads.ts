import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Runtime } from '../core/invoke.js';
import { openDownload } from '../domain/documents/download.js';
import { documentBytes } from '../domain/documents/package-stream.js';

/**
 * The one refusal of a download link, byte for byte: unknown, altered, expired and malformed links all get exactly
 * this body and these headers (no request id, which would differ), so an answer never tells which.
 */
export const DOWNLOAD_REFUSED = JSON.stringify({
  type: '/docs/errors#FORBIDDEN',
  title: 'Not allowed',
  status: 403,
  code: 'FORBIDDEN',
  detail:
    'This download link does not work: it is unknown, altered or expired (links last minutes), or whoever made it has lost access or its document was archived since. Ask for a new one with download_document.',
});

const HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex, nofollow',
} as const;

/** Whether a request is for a download link (`/downloads/…`), whatever follows. */
export const isDownloadPath = (url: string) => url.startsWith('/downloads/');

export const sendDownloadRefused = (reply: FastifyReply) =>
  reply.headers(HEADERS).type('application/problem+json').code(403).send(DOWNLOAD_REFUSED);

/** `filename="…"` for old clients (ASCII, quotes and backslashes dropped) and `filename*` for the exact name. */
const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * `GET /downloads/<token>`: the file a signed link names, streamed from the blob store as an attachment (a package's
 * ZIP written from its entries as it goes, its length known beforehand). Anonymous (the
 * link is the authority; admission asks for no token): everything after `/downloads/` is the token, so any malformed
 * link gets the same refusal as an unknown or expired one. The token is never logged.
 */
export function registerDownloads(app: FastifyInstance, rt: Runtime) {
  app.get<{ Params: { '*': string } }>('/downloads/*', { config: { anonymous: true } }, async (req, reply) => {
    const found = await rt.store.readSnapshot(async (db, queryRow) => {
      const file = await openDownload(rt.config, queryRow, req.params['*']);
      return file && { file, body: await documentBytes(db, rt.files, file) };
    });
    if (!found) return sendDownloadRefused(reply);
    const { file, body } = found;
    return reply
      .headers(HEADERS)
      .header('content-disposition', disposition(file.filename))
      .header('content-length', String(file.size))
      .header('etag', `"${file.sha256}"`)
      .type(file.mediaType)
      .code(200)
      .send(body);
  });
}
