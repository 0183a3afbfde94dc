import { sql } from 'kysely';
import type { Store } from '../../../db/store.js';
import { verifyAgainstNothing, verifyPassword } from './passwords.js';

/**
 * Checking a person's email and password, for every way a person signs in (the `/login` page, the OAuth consent page,
 * an invitation's page for someone who already has an account). One answer for an unknown email and a wrong password,
 * in about the same time, so the check says nothing about who has an account. Attempts are counted per email address:
 * at most `FAILURES_BEFORE_LOCK` are checked within `WINDOW_MS`; after that many failures the address is refused for
 * `LOCK_MS` without checking the password, even a right one (guessing stops paying; the person waits a quarter of an
 * hour).
 */
export const FAILURES_BEFORE_LOCK = 5;
const WINDOW_MS = 15 * 60_000;
const LOCK_MS = 15 * 60_000;
/** Longer than any address (RFC 5321 allows 254): such input is checked against nothing and never counted. */
const EMAIL_MAX = 320;

/** Failed sign-ins per email address, for the throttle below. */
export interface SignInFailureRow {
  email: string;
  failures: number;
  first_failed_at: string;
  locked_until: string | null;
}
declare module '../../../db/schema.js' {
  interface Database {
    sign_in_failures: SignInFailureRow;
  }
}

export type SignInResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

/** Emails compare as typed by people: trimmed, case-insensitive. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function checkSignIn(store: Store, emailInput: string, password: string): Promise<SignInResult> {
  const email = normalizeEmail(emailInput);
  if (!email || email.length > EMAIL_MAX) return verifyAgainstNothing(password).then(() => INVALID);
  const now = Date.now();
  // The attempt is counted before the password is checked, in one statement: guesses sent side by side each take a
  // place in the count, so no more than FAILURES_BEFORE_LOCK of them are ever checked (counting after the check let
  // every guess that arrived while the others were being hashed through).
  const attempt = await countAttempt(store, email, now);
  if (attempt.failures > FAILURES_BEFORE_LOCK && attempt.locked_until) {
    return {
      ok: false,
      reason: 'locked',
      retryAfterSeconds: Math.max(1, Math.ceil((Date.parse(attempt.locked_until) - now) / 1000)),
    };
  }
  const user = await store.readRow<{ id: string; password_hash: string | null }>(
    'SELECT id, password_hash FROM users WHERE lower(email) = ?',
    email,
  );
  const ok = user?.password_hash
    ? await verifyPassword(password, user.password_hash)
    : await verifyAgainstNothing(password);
  if (ok && user) {
    await store.write((tx) => tx.deleteFrom('sign_in_failures').where('email', '=', email).execute());
    return { ok: true, userId: user.id };
  }
  // The attempt stays counted: it was a failure.
  return INVALID;
}

const INVALID = { ok: false, reason: 'invalid' } as const;

/**
 * Counts one attempt for `email` and answers the count with the lock. A fresh window (the first attempt, one after the
 * window or the lock ran out) starts at 1; the attempt that reaches FAILURES_BEFORE_LOCK sets the lock (cleared if it
 * turns out right); attempts while locked are counted past the limit, which is how the caller knows to refuse them.
 */
async function countAttempt(store: Store, email: string, now: number) {
  const at = new Date(now).toISOString();
  const windowStart = new Date(now - WINDOW_MS).toISOString();
  const lockEnd = new Date(now + LOCK_MS).toISOString();
  const f = 'sign_in_failures';
  const locked = sql`(${sql.ref(`${f}.locked_until`)} IS NOT NULL AND ${sql.ref(`${f}.locked_until`)} > ${at})`;
  const fresh = sql`(${sql.ref(`${f}.first_failed_at`)} <= ${windowStart} OR ${sql.ref(`${f}.locked_until`)} IS NOT NULL)`;
  const failures = sql.ref(`${f}.failures`);
  return store.write(async (tx) => {
    const { rows } = await sql<{ failures: number; locked_until: string | null }>`
      INSERT INTO sign_in_failures (email, failures, first_failed_at, locked_until)
      VALUES (${email}, 1, ${at}, ${FAILURES_BEFORE_LOCK <= 1 ? lockEnd : null})
      ON CONFLICT (email) DO UPDATE SET
        failures = CASE WHEN ${locked} THEN ${failures} + 1 WHEN ${fresh} THEN 1 ELSE ${failures} + 1 END,
        first_failed_at = CASE WHEN ${locked} THEN ${sql.ref(`${f}.first_failed_at`)} WHEN ${fresh} THEN ${at}
          ELSE ${sql.ref(`${f}.first_failed_at`)} END,
        locked_until = CASE WHEN ${locked} THEN ${sql.ref(`${f}.locked_until`)}
          WHEN NOT ${fresh} AND ${failures} + 1 >= ${FAILURES_BEFORE_LOCK} THEN ${lockEnd} ELSE NULL END
      RETURNING failures, locked_until`.execute(tx);
    const row = rows[0]!;
    return { failures: Number(row.failures), locked_until: row.locked_until };
  });
}
