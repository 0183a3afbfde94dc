import { newToken, sha256 } from '../../core/ids.js';

/**
 * An invitation's token: `invite_` (so people and secret scanners recognise it) and 256 random bits in base64url, as
 * API and share tokens are. Only its SHA-256 digest is kept (the token is random enough for a fast digest); the token
 * itself exists in the email that carries it, or in the one answer that shows it to the member who invited.
 */
export function mintInvitationToken() {
  const token = newToken('invite');
  return { token, hash: invitationTokenDigest(token), hint: token.slice(-4) };
}

/** The digest a token is looked up by; a huge input is cut first, so it costs no more to hash than a token. */
export const invitationTokenDigest = (token: string): string => sha256(token.slice(0, 1024));

/** The page an invitation's link opens, served by this server: where a new person sets their name and password. */
export const invitationUrl = (baseUrl: string, token: string): string => `${baseUrl}/invitations/${token}`;

/**
 * The one refusal of an invitation's token: unknown, malformed, already used, revoked, replaced by a resend or expired
 * all get exactly this, so an answer never tells which.
 */
export const INVITATION_REFUSED =
  'This invitation cannot be used: it was already accepted, revoked or replaced by a newer one, or it has expired. Ask the studio for a new invitation.';
