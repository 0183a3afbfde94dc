import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { RowReader } from '../../../db/store.js';
import type { ActionContext } from '../../core/context.js';
import { liveDocument } from '../client-document/document.js';
import { type LiveShare, resolveShareToken } from './resolve.js';
import { sharedPhotographPath } from './token.js';
import { sharedRevision } from '../share-decisions/shared-revision.js';

type Reader = Pick<ActionContext, 'db' | 'queryRow' | 'now'>;

/**
 * What a share's link shows, and what the link allows until when. A view link: the live client document (its id is
 * the project's: pieces as they are now, photographs as last minted), every photograph given the URLs that serve it by
 * the token alone (the holder has no other credential); the client document already keeps to the client's register
 * and to what its settings show. A decide link: the one estimate revision it names, as the client sees it, and the
 * decision on it once made.
 */
export async function sharedDocument(ctx: Reader, share: LiveShare, token: string) {
  const base = { intent: share.intent, expiresAt: share.expiresAt };
  if (share.document.kind === 'estimate_revision') {
    return { ...base, document: null, estimateRevision: await sharedRevision(ctx, share) };
  }
  const document = await liveDocument(ctx, share.document.id);
  const withUrls = <P extends { id: string }>(photograph: P) => ({
    ...photograph,
    url: sharedPhotographPath(token, photograph.id, 'display'),
    thumbnailUrl: sharedPhotographPath(token, photograph.id, 'thumbnail'),
  });
  return {
    ...base,
    document: {
      ...document,
      sections: document.sections.map((section) => ({
        ...section,
        pieces: section.pieces.map((piece) => ({ ...piece, photographs: piece.photographs.map(withUrls) })),
      })),
    },
    estimateRevision: null,
  };
}
export type SharedDocument = Awaited<ReturnType<typeof sharedDocument>>;
/** What a view link shows: the client document. */
export type SharedClientDocument = Extract<SharedDocument, { estimateRevision: null }>;

/**
 * The shared document a token opens, read in one snapshot, or the one FORBIDDEN refusal for any token that does not
 * work (see resolveShareToken). For the client page, which has no `invoke` in front of it.
 */
export async function openSharedDocument(
  db: Kysely<Database>,
  queryRow: RowReader,
  token: string,
  now: string,
): Promise<SharedDocument> {
  const share = await resolveShareToken(queryRow, token, now);
  return sharedDocument({ db, queryRow, now }, share, token);
}
