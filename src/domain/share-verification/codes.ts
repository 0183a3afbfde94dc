import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { newId, sha256 } from '../../core/ids.js';
import { VERIFICATION_RULES as RULES } from './rules.js';

/** A one-time code's row: its salted digest, never the code itself. */
export interface ShareVerificationCodeRow {
  id: string;
  share_id: string;
  code_digest: string;
  sent_to: string;
  created_at: string;
  expires_at: string;
  wrong_tries: number;
  spent_at: string | null;
}
declare module '../../../db/schema.js' {
  interface Database {
    share_verification_codes: ShareVerificationCodeRow;
  }
}

/** A fresh code: 6 digits from the system's generator, and the salted digest that is all the database keeps of it. */
export function mintCode(): { code: string; digest: string } {
  const code = randomInt(0, 10 ** RULES.digits)
    .toString()
    .padStart(RULES.digits, '0');
  const salt = randomBytes(16).toString('hex');
  return { code, digest: `${salt}:${sha256(`${salt}:${code}`)}` };
}

/** Whether `code` is the one `digest` was made from, compared in constant time. */
export function codeMatches(digest: string, code: string): boolean {
  const [salt, want] = digest.split(':') as [string, string];
  const got = sha256(`${salt}:${code}`);
  return timingSafeEqual(Buffer.from(got), Buffer.from(want));
}

/** An address as an answer may show it to whoever holds the link: its first character and its domain (a•••@example.com). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '•••' : `${email[0]}•••${email.slice(at)}`;
}

/** Where a share's verification stands within the window: codes sent, wrong tries in a row, the code that works now. */
export interface VerificationStanding {
  codesInWindow: number;
  wrongInARow: number;
  current: ShareVerificationCodeRow | undefined;
  /** When the oldest counted code or wrong try leaves the window (a limit lifts then). */
  windowEndsAt: string | undefined;
}

/**
 * The share's codes of the last 24 hours, oldest first, read into its standing: wrong tries add up across codes
 * until a correct one (a new code never resets them); only the newest code works, while unspent and unexpired.
 */
export async function verificationStanding(
  db: Kysely<Database>,
  shareId: string,
  now: string,
): Promise<VerificationStanding> {
  const since = new Date(Date.parse(now) - RULES.windowMs).toISOString();
  const codes = await db
    .selectFrom('share_verification_codes')
    .selectAll()
    .where('share_id', '=', shareId)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  let wrongInARow = 0;
  for (const c of codes) wrongInARow = c.spent_at ? 0 : wrongInARow + c.wrong_tries;
  const newest = codes.at(-1);
  const current = newest && !newest.spent_at && newest.expires_at > now ? newest : undefined;
  const first = codes[0];
  const windowEndsAt = first ? new Date(Date.parse(first.created_at) + RULES.windowMs).toISOString() : undefined;
  return { codesInWindow: codes.length, wrongInARow, current, windowEndsAt };
}

/** Records a new code for the share, sent to `sentTo`, and answers it in clear (for its email only) with its row. */
export async function recordCode(db: Kysely<Database>, shareId: string, sentTo: string, now: string) {
  const { code, digest } = mintCode();
  const row: ShareVerificationCodeRow = {
    id: newId(),
    share_id: shareId,
    code_digest: digest,
    sent_to: sentTo,
    created_at: now,
    expires_at: new Date(Date.parse(now) + RULES.codeLifetimeMs).toISOString(),
    wrong_tries: 0,
    spent_at: null,
  };
  await db.insertInto('share_verification_codes').values(row).execute();
  return { code, row };
}

/** A wrong try, counted on the code it was meant for. */
export const countWrongTry = (db: Kysely<Database>, codeId: string) =>
  db
    .updateTable('share_verification_codes')
    .set((eb) => ({ wrong_tries: eb('wrong_tries', '+', 1) }))
    .where('id', '=', codeId)
    .execute();

/** The code's first correct use: it never works again. */
export const spendCode = (db: Kysely<Database>, codeId: string, now: string) =>
  db
    .updateTable('share_verification_codes')
    .set({ spent_at: now })
    .where('id', '=', codeId)
    .where('spent_at', 'is', null)
    .executeTakeFirst();
