import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { RowReader } from '../../../db/store.js';
import type { ActionContext } from '../../core/context.js';
import { liveDocument } from '../client-document/document.js';
import { type LiveShare, resolveShareToken } from './resolve.js';
import { sharedPhotographPath } from './token.js';

type Reader = Pick<ActionContext, 'db' | 'queryRow' | 'now'>;

/** The document a share opens, as its client reads it now. */
async function documentOf(ctx: Reader, share: LiveShare) {
  switch (share.document.kind) {
    // The live client document (its id is the project's): pieces as they are now, photographs as last minted.
    case 'client_document':
      return liveDocument(ctx, share.document.id);
  }
}

/**
 * What a share's link shows: its document with every photograph given the URLs that serve it by the token alone
 * (the holder has no other credential), and what the link allows and until when. The client document already keeps
 * to the client's register and to what its settings show; nothing is added here but the URLs.
 */
export async function sharedDocument(ctx: Reader, share: LiveShare, token: string) {
  const document = await documentOf(ctx, share);
  const withUrls = <P extends { id: string }>(photograph: P) => ({
    ...photograph,
    url: sharedPhotographPath(token, photograph.id, 'display'),
    thumbnailUrl: sharedPhotographPath(token, photograph.id, 'thumbnail'),
  });
  return {
    intent: share.intent,
    expiresAt: share.expiresAt,
    document: {
      ...document,
      sections: document.sections.map((section) => ({
        ...section,
        pieces: section.pieces.map((piece) => ({ ...piece, photographs: piece.photographs.map(withUrls) })),
      })),
    },
  };
}
export type SharedDocument = Awaited<ReturnType<typeof sharedDocument>>;

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
