/**
 * The rules for proving control of a share's recipient mailbox, after NIST SP 800-63B's for one-time codes sent out
 * of band (5.1.3, 5.2.2): a short random code, short-lived, spent by its first correct use, with wrong tries limited
 * so guessing cannot win. Wrong tries are counted across codes: asking for a new code never resets them.
 */
export const VERIFICATION_RULES = {
  /** Digits in a code: 10^6 values, drawn uniformly. */
  digits: 6,
  /** How long a code works after it is sent. */
  codeLifetimeMs: 10 * 60 * 1000,
  /** Wrong tries in a row (since the last correct code, within the window) before the link's verification locks. */
  wrongTriesInARow: 5,
  /** Codes sent for one share within the window. */
  codesPerWindow: 10,
  /** The rolling window both limits count over. */
  windowMs: 24 * 60 * 60 * 1000,
  /** How long a verified session lasts after the correct code. */
  sessionLifetimeMs: 30 * 60 * 1000,
} as const;

/** A duration in whole minutes, for sentences. */
export const minutes = (ms: number) => Math.round(ms / 60_000);
