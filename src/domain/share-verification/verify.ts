import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Config } from '../../config.js';
import { ServiceError } from '../../core/errors.js';
import { deliveryConfigured } from '../documents/mail-config.js';
import { codeMatches, countWrongTry, maskEmail, recordCode, spendCode, verificationStanding } from './codes.js';
import { minutes, VERIFICATION_RULES as RULES } from './rules.js';
import { openSession, type VerifiedSession } from './sessions.js';

/**
 * Proving control of a share's recipient mailbox: a code asked for (recorded, then emailed), and a code checked
 * (spent, opening a verified session; or a wrong try counted). The page and decide_estimate both go through here.
 */

/** What the client is told when the server has no mail server: the studio records their decision instead. */
export const NO_MAIL_SENTENCE =
  "This studio's server sends no email, so the decision cannot be verified and made through this link: tell the studio your decision, and they record it themselves (record_estimate_decision).";

/** The share's recipient and the studio's name, for the code's email. */
async function recipientOf(db: Kysely<Database>, shareId: string) {
  return db
    .selectFrom('shares')
    .innerJoin('projects', 'projects.id', 'shares.project_id')
    .innerJoin('studios', 'studios.id', 'projects.studio_id')
    .select(['shares.recipient_email as email', 'studios.name as studioName'])
    .where('shares.id', '=', shareId)
    .executeTakeFirstOrThrow();
}

const limited = (detail: string, until: string | undefined) =>
  new ServiceError('VERIFICATION_LIMITED', detail, until ? { extra: { retryAfter: until } } : {});

/** A code just recorded: where it went (masked), until when it works, and the email to send once the write commits. */
export interface SentCode {
  sentTo: string;
  expiresAt: string;
  mail: { codeId: string; to: string; studioName: string; code: string };
}

/**
 * Records a new code for the share and answers the email that carries it, within the limits: refused without a mail
 * server (DELIVERY_NOT_CONFIGURED), and after 10 codes or 5 wrong tries in a row within 24 hours (VERIFICATION_LIMITED).
 * The earlier code stops working: only the newest does.
 */
export async function requestCode(
  db: Kysely<Database>,
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>,
  shareId: string,
  now: string,
): Promise<SentCode> {
  if (!deliveryConfigured(config)) throw new ServiceError('DELIVERY_NOT_CONFIGURED', NO_MAIL_SENTENCE);
  const { email, studioName } = await recipientOf(db, shareId);
  if (!email) throw new ServiceError('FORBIDDEN', NO_RECIPIENT);
  const standing = await verificationStanding(db, shareId, now);
  if (standing.wrongInARow >= RULES.wrongTriesInARow) throw locked(standing.windowEndsAt);
  if (standing.codesInWindow >= RULES.codesPerWindow) {
    throw limited(
      `${RULES.codesPerWindow} codes were sent for this link in the last 24 hours, the most there can be; use the latest one, try again after ${standing.windowEndsAt}, or ask the studio to record the decision.`,
      standing.windowEndsAt,
    );
  }
  const { code, row } = await recordCode(db, shareId, email, now);
  return { sentTo: maskEmail(email), expiresAt: row.expires_at, mail: { codeId: row.id, to: email, studioName, code } };
}

const NO_RECIPIENT =
  'This link names no recipient whose email could be verified; ask the studio to record your decision themselves.';

const locked = (until: string | undefined) =>
  limited(
    `${RULES.wrongTriesInARow} wrong codes in a row were entered for this link, so it takes no more codes until ${until}; ask the studio to record your decision, or for a new link.`,
    until,
  );

/** The answer to a call that needs a verified session and brought none: a code was just sent, and how to go on. */
export const codeSent = (sent: Pick<SentCode, 'sentTo' | 'expiresAt'>) =>
  new ServiceError(
    'VERIFICATION_REQUIRED',
    `A 6-digit code was emailed to ${sent.sentTo}; it works once, for ${minutes(RULES.codeLifetimeMs)} minutes. Ask the recipient for it, then send the same call again with verificationCode set to it.`,
    { extra: { sentTo: sent.sentTo, expiresAt: sent.expiresAt } },
  );

export type CheckedCode = { ok: true; secret: string; session: VerifiedSession } | { ok: false; refusal: ServiceError };

/**
 * Checks a code against the share's newest one: right, it is spent and a verified session opens (its secret answered
 * once); wrong, the try is counted (the caller commits that and answers the refusal). No code working now (none asked,
 * expired, spent) counts nothing. Locked after 5 wrong tries in a row: VERIFICATION_LIMITED, before any comparison.
 */
export async function checkCode(
  db: Kysely<Database>,
  shareId: string,
  code: string,
  now: string,
): Promise<CheckedCode> {
  const standing = await verificationStanding(db, shareId, now);
  if (standing.wrongInARow >= RULES.wrongTriesInARow) throw locked(standing.windowEndsAt);
  const current = standing.current;
  const triesLeft = RULES.wrongTriesInARow - standing.wrongInARow;
  if (!current) {
    return {
      ok: false,
      refusal: new ServiceError(
        'VERIFICATION_FAILED',
        'No code works for this link now (the last one expired, was used, or none was sent): send the call without verificationCode to have a new one emailed.',
        { extra: { triesLeft } },
      ),
    };
  }
  if (!codeMatches(current.code_digest, code)) {
    await countWrongTry(db, current.id);
    const left = triesLeft - 1;
    return {
      ok: false,
      refusal: new ServiceError(
        'VERIFICATION_FAILED',
        left > 0
          ? `That is not the code emailed to ${maskEmail(current.sent_to)}: check the latest email and try again (${left} wrong ${left === 1 ? 'try' : 'tries'} left before this link locks for a day).`
          : `That is not the code emailed to ${maskEmail(current.sent_to)}, and it was the last wrong try: this link takes no more codes for a day. Ask the studio to record your decision.`,
        { extra: { triesLeft: left } },
      ),
    };
  }
  await spendCode(db, current.id, now);
  const opened = await openSession(db, { shareId, codeId: current.id, email: current.sent_to, now });
  return { ok: true, ...opened };
}
