import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { newId, newToken, sha256 } from '../../core/ids.js';
import { VERIFICATION_RULES as RULES } from './rules.js';

/**
 * A verified session: proof that whoever holds its secret (the page's cookie) entered, at `verified_at`, the code
 * emailed to `email` for this share. That is all it proves: control of that mailbox at that time, not who they are.
 */
export interface ShareVerifiedSessionRow {
  id: string;
  share_id: string;
  code_id: string;
  secret_digest: string;
  email: string;
  verified_at: string;
  expires_at: string;
  /** The decision this session's proof stands behind, once it was used for one. */
  decision_id: string | null;
}
declare module '../../../db/schema.js' {
  interface Database {
    share_verified_sessions: ShareVerifiedSessionRow;
  }
}

/** What a verified session proves, as a decision records it. */
export interface VerifiedSession {
  id: string;
  email: string;
  verifiedAt: string;
  expiresAt: string;
}

const present = (row: ShareVerifiedSessionRow): VerifiedSession => ({
  id: row.id,
  email: row.email,
  verifiedAt: row.verified_at,
  expiresAt: row.expires_at,
});

/** Opens a session bound to the share for 30 minutes; its secret is answered once (for a cookie), kept as a digest. */
export async function openSession(
  db: Kysely<Database>,
  p: { shareId: string; codeId: string; email: string; now: string },
): Promise<{ secret: string; session: VerifiedSession }> {
  const secret = newToken('verified');
  const row: ShareVerifiedSessionRow = {
    id: newId(),
    share_id: p.shareId,
    code_id: p.codeId,
    secret_digest: sha256(secret),
    email: p.email,
    verified_at: p.now,
    expires_at: new Date(Date.parse(p.now) + RULES.sessionLifetimeMs).toISOString(),
    decision_id: null,
  };
  await db.insertInto('share_verified_sessions').values(row).execute();
  return { secret, session: present(row) };
}

/** The live session a secret opens for this share, or undefined (another share's, expired, unknown, or none sent). */
export async function liveSession(
  db: Kysely<Database>,
  shareId: string,
  secret: string | undefined,
  now: string,
): Promise<VerifiedSession | undefined> {
  if (!secret) return undefined;
  const row = await db
    .selectFrom('share_verified_sessions')
    .selectAll()
    .where('secret_digest', '=', sha256(secret.slice(0, 200)))
    .executeTakeFirst();
  return row && row.share_id === shareId && row.expires_at > now ? present(row) : undefined;
}

/** Records the decision a session's proof stands behind (what was proved, by whom, when, for what). */
export const sessionUsedFor = (db: Kysely<Database>, sessionId: string, decisionId: string) =>
  db.updateTable('share_verified_sessions').set({ decision_id: decisionId }).where('id', '=', sessionId).execute();
