import type { Store } from '../../../db/store.js';
import { verifyAgainstNothing, verifyPassword } from './passwords.js';

/**
 * Checking a person's email and password, for every way a person signs in (the `/login` page, the OAuth consent page,
 * accepting an invitation's follow-up sign-in). One answer for an unknown email and a wrong password, in about the same
 * time, so the check says nothing about who has an account. Failed attempts are counted per email address: after
 * `FAILURES_BEFORE_LOCK` within `WINDOW_MS`, the address is refused for `LOCK_MS` without checking the password, even a
 * right one (guessing stops paying; the person waits a quarter of an hour or resets).
 */
export const FAILURES_BEFORE_LOCK = 5;
const WINDOW_MS = 15 * 60_000;
const LOCK_MS = 15 * 60_000;

export type SignInResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

/** Emails compare as typed by people: trimmed, case-insensitive. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function checkSignIn(store: Store, emailInput: string, password: string): Promise<SignInResult> {
  const email = normalizeEmail(emailInput);
  const now = Date.now();
  const failure = await store.readRow<{ failures: number; first_failed_at: string; locked_until: string | null }>(
    'SELECT failures, first_failed_at, locked_until FROM sign_in_failures WHERE email = ?',
    email,
  );
  if (failure?.locked_until && Date.parse(failure.locked_until) > now) {
    return {
      ok: false,
      reason: 'locked',
      retryAfterSeconds: Math.ceil((Date.parse(failure.locked_until) - now) / 1000),
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
    if (failure) await store.write((tx) => tx.deleteFrom('sign_in_failures').where('email', '=', email).execute());
    return { ok: true, userId: user.id };
  }
  await recordFailure(store, email, failure, now);
  return { ok: false, reason: 'invalid' };
}

async function recordFailure(
  store: Store,
  email: string,
  previous: { failures: number; first_failed_at: string } | undefined,
  now: number,
) {
  const fresh = !previous || now - Date.parse(previous.first_failed_at) > WINDOW_MS;
  const failures = fresh ? 1 : previous.failures + 1;
  const row = {
    email,
    failures,
    first_failed_at: fresh ? new Date(now).toISOString() : previous.first_failed_at,
    locked_until: failures >= FAILURES_BEFORE_LOCK ? new Date(now + LOCK_MS).toISOString() : null,
  };
  await store.write((tx) =>
    tx
      .insertInto('sign_in_failures')
      .values(row)
      .onConflict((oc) =>
        oc.column('email').doUpdateSet({
          failures: row.failures,
          first_failed_at: row.first_failed_at,
          locked_until: row.locked_until,
        }),
      )
      .execute(),
  );
}
