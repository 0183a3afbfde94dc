import type { FastifyReply } from 'fastify';
import type { Store } from '../../../db/store.js';
import { checkSignIn, type SignInResult } from '../../domain/people/sign-in.js';
import { Gate } from '../../files/gate.js';

/**
 * A password check costs about 32 MiB and 100 ms of a core (scrypt): at most two run at once in a process (the rest
 * wait their turn), and one address may try at most this many sign-ins in ten minutes, whatever the emails.
 */
const SIGN_INS_AT_ONCE = 2;
export const SIGN_INS_PER_ADDRESS = 30;
const WINDOW_MS = 10 * 60_000;
/** Past this many addresses remembered, those whose window has passed are forgotten. */
const ADDRESSES_KEPT = 10_000;

export type LimitedSignIn = SignInResult | { ok: false; reason: 'address'; retryAfterSeconds: number };

/**
 * Every password a page checks (`/login`, an invitation's page, the consent page) goes through one instance of this
 * per server, so the limits hold whichever page is used: per email address in the database (checkSignIn: five
 * failures lock it for a quarter of an hour), and in this process per client address (SIGN_INS_PER_ADDRESS, counted
 * before the check) and in number at once (SIGN_INS_AT_ONCE). Behind a proxy the client address is the proxy's.
 */
export class SignInLimits {
  private readonly checks = new Gate(SIGN_INS_AT_ONCE);
  private readonly recent = new Map<string, number[]>();

  async check(store: Store, address: string, email: string, password: string): Promise<LimitedSignIn> {
    const wait = this.wait(address);
    if (wait) return { ok: false, reason: 'address', retryAfterSeconds: wait };
    return this.checks.run(() => checkSignIn(store, email, password));
  }

  /** Seconds until `address` may try again, or 0 (and this attempt counted). */
  private wait(address: string): number {
    const now = Date.now();
    const times = (this.recent.get(address) ?? []).filter((t) => now - t < WINDOW_MS);
    if (times.length >= SIGN_INS_PER_ADDRESS) return Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000));
    times.push(now);
    this.recent.set(address, times);
    if (this.recent.size > ADDRESSES_KEPT)
      for (const [k, v] of this.recent) if (v.every((t) => now - t >= WINDOW_MS)) this.recent.delete(k);
    return 0;
  }
}

/**
 * The answer to a sign-in refused by a limit rather than by a wrong password: 429, Retry-After set on the reply, and
 * the sentence saying which limit and how long to wait.
 */
export function limitedAnswer(
  reply: FastifyReply,
  result: Extract<LimitedSignIn, { reason: 'locked' | 'address' }>,
): { status: 429; text: string } {
  reply.header('retry-after', String(result.retryAfterSeconds));
  const minutes = Math.max(1, Math.ceil(result.retryAfterSeconds / 60));
  const wait = `Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
  return {
    status: 429,
    text:
      result.reason === 'locked'
        ? `Too many attempts to sign in with this email address. ${wait}`
        : `Too many sign-ins from this address (your network's). ${wait}`,
  };
}
