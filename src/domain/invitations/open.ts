import type { RowReader } from '../../../db/store.js';
import type { AssignableRole } from '../../../db/vocabulary.js';
import { ServiceError } from '../../core/errors.js';
import { INVITATION_REFUSED, invitationTokenDigest } from './token.js';

/**
 * One statement, the same work whatever the token: one row always (all NULL for an unknown digest), the same joins
 * (probing by '' where there is nothing to join), so a token that names an invitation costs what one that names none
 * does. It also finds the account the invited address already has, if any: a person who has one proves it is them
 * (their password, or their API token) rather than setting a new password.
 */
const LOOKUP = `
  SELECT i.id, i.studio_id, i.email, i.role, i.expires_at, i.accepted_at, i.revoked_at,
         s.name AS studio_name, iu.name AS inviter_name,
         u.id AS user_id, u.name AS user_name,
         CASE WHEN u.password_hash IS NULL THEN 0 ELSE 1 END AS has_password
  FROM (SELECT CAST(? AS TEXT) AS token_hash) q
  LEFT JOIN invitations i ON i.token_hash = q.token_hash
  LEFT JOIN studios s ON s.id = COALESCE(i.studio_id, '')
  LEFT JOIN members im ON im.id = COALESCE(i.invited_by, '')
  LEFT JOIN users iu ON iu.id = COALESCE(im.user_id, '')
  LEFT JOIN users u ON lower(u.email) = COALESCE(i.email, '')`;

interface Found {
  id: string | null;
  studio_id: string;
  email: string;
  role: AssignableRole;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  studio_name: string;
  inviter_name: string | null;
  user_id: string | null;
  user_name: string | null;
  has_password: number | string;
}

/** An invitation whose token works now: the studio it opens, for whom, as what, and that person's account if any. */
export interface LiveInvitation {
  id: string;
  studioId: string;
  studioName: string;
  email: string;
  role: AssignableRole;
  inviterName: string;
  expiresAt: string;
  /** The account the invited address already has, or null for a new person. */
  person: { userId: string; name: string; hasPassword: boolean } | null;
}

/**
 * The live invitation a token names, or FORBIDDEN with INVITATION_REFUSED. Read on the connection given: inside a
 * write, the transaction that will accept it, so a token is accepted at most once.
 */
export async function resolveInvitationToken(
  queryRow: RowReader,
  token: unknown,
  now: string,
): Promise<LiveInvitation> {
  const row = await queryRow<Found>(LOOKUP, invitationTokenDigest(typeof token === 'string' ? token : ''));
  const live =
    row !== undefined && row.id !== null && row.accepted_at === null && row.revoked_at === null && row.expires_at > now;
  if (!live) throw new ServiceError('FORBIDDEN', INVITATION_REFUSED);
  return {
    id: row.id!,
    studioId: row.studio_id,
    studioName: row.studio_name,
    email: row.email,
    role: row.role,
    inviterName: row.inviter_name ?? '',
    expiresAt: row.expires_at,
    person: row.user_id
      ? { userId: row.user_id, name: row.user_name ?? '', hasPassword: Number(row.has_password) === 1 }
      : null,
  };
}
