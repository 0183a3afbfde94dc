import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import { nowIso } from '../../core/ids.js';
import { openDerived } from '../../domain/photographs/variants.js';
import { VARIANTS, type Variant } from '../../domain/photographs/sizes.js';
import { openSharedPhotograph } from '../../domain/shares/shared-photographs.js';
import { notModified } from '../not-modified.js';
import { html } from './html.js';
import { SHARE_PAGE_HEADERS } from './page.js';

/** `<token>/photographs/<photographId>`: what follows `/s/` in a photograph URL of a shared document. */
const PHOTOGRAPH_PATH = /^([^/]*)\/photographs\/([^/]+)$/;

/** The token and photograph a path after `/s/` names, when it has the shape of a photograph URL. */
export function photographPath(rest: string): { token: string; photographId: string } | undefined {
  const m = PHOTOGRAPH_PATH.exec(rest);
  return m ? { token: m[1]!, photographId: m[2]! } : undefined;
}

const BAD_VARIANT = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unknown size</title></head>
<body><main><h1>Unknown size</h1><p>A photograph here comes as ?variant=display or ?variant=thumbnail.</p></main></body></html>`
  .value;

/**
 * Sends a photograph of a shared document by the token alone: a working token and a photograph its document shows
 * (as the latest mint froze it), at display or thumbnail size. A token that does not work throws the one FORBIDDEN
 * refusal, whatever the photograph; a photograph the document does not show, NOT_FOUND (the caller answers both).
 * Every request passes the token check: the image may be kept only to revalidate (`no-cache` with a strong ETag, so
 * an unchanged image costs a 304), never served from a cache after the link is revoked.
 */
export async function sendSharedPhotograph(
  rt: Runtime,
  req: FastifyRequest,
  reply: FastifyReply,
  path: { token: string; photographId: string },
) {
  const frozen = await rt.store.readSnapshot((db, queryRow) =>
    openSharedPhotograph(db, queryRow, path.token, path.photographId, nowIso()),
  );
  const variant = (req.query as Record<string, unknown>).variant ?? 'display';
  if (!VARIANTS.includes(variant as Variant)) return reply.headers(SHARE_PAGE_HEADERS).code(400).send(BAD_VARIANT);
  const file = await openDerived(rt.files, frozen, variant as Variant);
  reply.headers({
    etag: file.etag,
    'cache-control': 'private, no-cache',
    'referrer-policy': 'no-referrer',
    'x-robots-tag': 'noindex, nofollow',
    'x-content-type-options': 'nosniff',
  });
  if (notModified(req.headers['if-none-match'], file.etag)) return reply.code(304).send();
  return reply
    .code(200)
    .type(file.mediaType)
    .header('content-length', String(file.size))
    .send(rt.files.open(file.path));
}
