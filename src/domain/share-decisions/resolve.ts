import type { RowReader } from '../../../db/store.js';
import { ServiceError } from '../../core/errors.js';
import { type LiveShare, resolveShareToken, SHARE_REFUSED } from '../shares/resolve.js';

/**
 * The live share a decision's token names, or the one refusal every token that does not work gets (FORBIDDEN with
 * SHARE_REFUSED): unknown, revoked, expired and malformed tokens, and a link that decides nothing (a client
 * document's, to view), are refused alike after the same lookup. It runs on the decision's own transaction, so a
 * revocation committed a moment before, even after the client verified, refuses the decision the same way.
 */
export async function openDecisionShare(queryRow: RowReader, token: string, now: string): Promise<LiveShare> {
  const share = await resolveShareToken(queryRow, token, now);
  if (share.document.kind !== 'estimate_revision' || share.intent !== 'decide') {
    throw new ServiceError('FORBIDDEN', SHARE_REFUSED);
  }
  return share;
}
