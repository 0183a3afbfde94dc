import type { RowReader } from '../../../db/store.js';
import type { ShareDocumentKind, ShareIntent } from '../../../db/vocabulary.js';
import { ServiceError } from '../../core/errors.js';
import { nowIso } from '../../core/ids.js';
import { shareTokenDigest } from './token.js';

/**
 * The one refusal of a share token. Unknown, revoked, expired and malformed tokens all get exactly this, so an answer
 * never tells which (nor that a share exists, nor that it once did).
 */
export const SHARE_REFUSED =
  'This link is no longer available; ask the studio that sent it for a new one. A share link works until it is revoked or expires.';

/** One indexed read: the share the digest names, its project's studio, and whether it was revoked. */
const LOOKUP = `
  SELECT s.id, s.project_id, p.studio_id, s.document_kind, s.document_id, s.intent, s.expires_at,
         r.revoked_at
  FROM shares s
  JOIN projects p ON p.id = s.project_id
  LEFT JOIN share_revocations r ON r.share_id = s.id
  WHERE s.token_hash = ?`;

interface Found {
  id: string;
  project_id: string;
  studio_id: string;
  document_kind: ShareDocumentKind;
  document_id: string;
  intent: ShareIntent;
  expires_at: string | null;
  revoked_at: string | null;
}

/** A share whose token works now, with the project and studio it opens. */
export interface LiveShare {
  shareId: string;
  projectId: string;
  studioId: string;
  document: { kind: ShareDocumentKind; id: string };
  intent: ShareIntent;
  expiresAt: string | null;
}

/**
 * The live share a token names, or FORBIDDEN with SHARE_REFUSED. Every token takes the same path whatever it is:
 * hashed (malformed text too: there is no format check to return early on), one lookup by the unique digest index,
 * then one decision over all the reasons at once. So unknown, revoked, expired and malformed tokens cost the same work
 * and get the same refusal, and timing tells them apart no better than the answer does.
 */
export async function resolveShareToken(
  queryRow: RowReader,
  token: string,
  now: string = nowIso(),
): Promise<LiveShare> {
  const row = await queryRow<Found>(LOOKUP, shareTokenDigest(typeof token === 'string' ? token : ''));
  const live = row !== undefined && row.revoked_at === null && (row.expires_at === null || row.expires_at > now);
  if (!live) throw new ServiceError('FORBIDDEN', SHARE_REFUSED);
  return {
    shareId: row.id,
    projectId: row.project_id,
    studioId: row.studio_id,
    document: { kind: row.document_kind, id: row.document_id },
    intent: row.intent,
    expiresAt: row.expires_at,
  };
}
