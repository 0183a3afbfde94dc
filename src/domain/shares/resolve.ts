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

/**
 * One statement, the same work whatever the token: it always answers one row (all NULL for an unknown digest) and
 * always makes the same three index probes (a missing share probes its project and revocation by '' rather than
 * skipping them), so a digest that names a share costs no more than one that names none.
 */
const LOOKUP = `
  SELECT s.id, s.project_id, p.studio_id, s.document_kind, s.document_id, s.intent, s.expires_at,
         r.revoked_at
  FROM (SELECT CAST(? AS TEXT) AS token_hash) q
  LEFT JOIN shares s ON s.token_hash = q.token_hash
  LEFT JOIN projects p ON p.id = COALESCE(s.project_id, '')
  LEFT JOIN share_revocations r ON r.share_id = COALESCE(s.id, '')`;

/** Every column is NULL when no share has the digest. */
interface Found {
  id: string | null;
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
 * hashed (malformed text too: there is no format check to return early on), one statement of the same work (see
 * LOOKUP), then one decision over all the reasons at once. So unknown, revoked, expired and malformed tokens cost the same work
 * and get the same refusal, and timing tells them apart no better than the answer does.
 */
export async function resolveShareToken(
  queryRow: RowReader,
  token: string,
  now: string = nowIso(),
): Promise<LiveShare> {
  const row = await queryRow<Found>(LOOKUP, shareTokenDigest(typeof token === 'string' ? token : ''));
  const live =
    row !== undefined &&
    row.id !== null &&
    row.revoked_at === null &&
    (row.expires_at === null || row.expires_at > now);
  if (!live) throw new ServiceError('FORBIDDEN', SHARE_REFUSED);
  return {
    shareId: row.id!,
    projectId: row.project_id,
    studioId: row.studio_id,
    document: { kind: row.document_kind, id: row.document_id },
    intent: row.intent,
    expiresAt: row.expires_at,
  };
}
