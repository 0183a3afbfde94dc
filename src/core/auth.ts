import type { Store } from '../../db/store.js';
import type { Caller } from './context.js';
import { ROLE_PERMISSIONS, type Role } from './permissions.js';
import { ServiceError } from './errors.js';
import { sha256 } from './ids.js';

interface TokenRow {
  token_id: string;
  member_id: string;
  user_id: string;
  studio_id: string;
  role: string;
  expires_at: string | null;
}

const LOOKUP = `
  SELECT t.id AS token_id, m.id AS member_id, m.user_id, m.studio_id, m.role, t.expires_at
  FROM api_tokens t JOIN members m ON m.id = t.member_id
  WHERE t.token_hash = ? AND t.revoked_at IS NULL AND m.removed_at IS NULL`;

/** Reads `Authorization: Bearer <token>`; anything else is treated as no token. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

/**
 * Resolves an API token to the member it acts for. Tokens are stored only as SHA-256 digests (they are 256-bit random,
 * so a fast digest is enough; no password hashing is needed). Revocation and member removal apply on the next request.
 */
export async function authenticate(store: Store, token: string | undefined): Promise<Caller> {
  if (!token) throw new ServiceError('UNAUTHENTICATED', 'No API token was sent; send "Authorization: Bearer <token>".');
  if (token.length > 512) throw new ServiceError('UNAUTHENTICATED');
  const row = await store.readRow<TokenRow>(LOOKUP, sha256(token));
  if (!row || (row.expires_at && row.expires_at <= new Date().toISOString())) {
    throw new ServiceError(
      'UNAUTHENTICATED',
      'The API token is unknown, revoked or expired; create a new one with `studio token create`.',
    );
  }
  const role = row.role as Role;
  return {
    userId: row.user_id,
    memberId: row.member_id,
    studioId: row.studio_id,
    role,
    tokenId: row.token_id,
    via: 'api_token',
    permissions: new Set(ROLE_PERMISSIONS[role]),
  };
}
