import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Store } from '../../../db/store.js';
import { newId, newToken, nowIso, sha256 } from '../../core/ids.js';

/**
 * Sessions: a person signed in on this server's own pages (`/login`, an invitation's page, the OAuth consent page),
 * not an API credential: no API accepts a session, so the APIs need no CSRF defence. The cookie holds a random secret
 * (256 bits) that is stored only as its SHA-256 digest, with a fixed expiry; signing out deletes the row. A session is
 * a person's, not a membership's: what it may reach is decided by whoever uses it (the consent page asks which
 * studio). Setting a password ends every session made before it.
 */
export const SESSION_HOURS = 12;
const SESSION_MS = SESSION_HOURS * 60 * 60 * 1000;

/** A person signed in on this server's pages; the cookie's secret is kept only as a SHA-256 digest. */
export interface SessionRow {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
}
declare module '../../../db/schema.js' {
  interface Database {
    sessions: SessionRow;
  }
}

/** A signed-in person, as the pages see them. */
export interface Session {
  id: string;
  userId: string;
  email: string;
  name: string;
  expiresAt: string;
}

/**
 * Opens a session for a person in the caller's transaction (so an invitation's page can make the person, their
 * membership and their session in one commit); sessions past their expiry are swept on the way. The secret is in the
 * answer only; the id names the session to whoever must later check it is still the same one (the consent form).
 */
export async function insertSession(db: Kysely<Database>, userId: string, now: string = nowIso()) {
  const id = newId();
  const secret = newToken('session');
  const expiresAt = new Date(Date.parse(now) + SESSION_MS).toISOString();
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  await db
    .insertInto('sessions')
    .values({ id, user_id: userId, token_hash: sha256(secret), created_at: now, expires_at: expiresAt })
    .execute();
  return { id, secret, expiresAt };
}

/** Opens a session for a person who has just proved who they are. */
export function startSession(store: Store, userId: string) {
  return store.write((tx) => insertSession(tx, userId));
}

const LOOKUP = `
  SELECT s.id, s.user_id, s.expires_at, u.email, u.name
  FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.token_hash = ? AND s.expires_at > ?
    AND (u.password_changed_at IS NULL OR s.created_at >= u.password_changed_at)`;

/** The person a session cookie's secret signs in, while the session lasts; undefined for anything else. */
export async function findSession(store: Store, secret: string | undefined): Promise<Session | undefined> {
  if (!secret || secret.length > 256) return undefined;
  const row = await store.readRow<{ id: string; user_id: string; expires_at: string; email: string; name: string }>(
    LOOKUP,
    sha256(secret),
    nowIso(),
  );
  return row && { id: row.id, userId: row.user_id, email: row.email, name: row.name, expiresAt: row.expires_at };
}

/** Signs out: the session is deleted, so its cookie names nothing from now on. */
export async function endSession(store: Store, secret: string): Promise<void> {
  await store.write((tx) => tx.deleteFrom('sessions').where('token_hash', '=', sha256(secret)).execute());
}

/**
 * The token a form carries to prove it was served to the holder of `key` (a session's secret, or the anonymous form
 * cookie of a visitor not signed in): derived from the secret, which only that browser holds (an HttpOnly cookie a
 * page on another site can neither read nor guess), so nothing needs storing.
 */
export const formTokenFor = (key: string): string =>
  Buffer.from(sha256(`form\u0000${key}`), 'hex').toString('base64url');

/** Whether a form's token was made for `key`; compared in constant time. */
export function formTokenMatches(key: string | undefined, sent: unknown): boolean {
  if (!key || typeof sent !== 'string') return false;
  const expected = Buffer.from(formTokenFor(key));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
