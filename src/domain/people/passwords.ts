import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password digests with scrypt (node:crypto, no native dependency). N = 2^15, r = 8, p = 1 uses 32 MiB and about
 * 60–100 ms of one core per digest: slow for a guesser, tolerable for a person signing in. The parameters are stored
 * with each digest, so they can be raised later and old digests still verify.
 */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
/** scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly that, so give it room. */
const MAX_MEMORY = 64 * 1024 * 1024;

/** The shortest and longest passwords accepted (long enough to matter; bounded so hashing cannot be made costly). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { N: n, r, p, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** A new digest for `password`, with a fresh 16-byte salt: `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `digest`; a malformed digest never matches. Compared in constant time. */
export async function verifyPassword(password: string, digest: string | null | undefined): Promise<boolean> {
  const parts = digest?.split('$');
  if (parts?.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (!Number.isInteger(n) || !Number.isInteger(r) || !Number.isInteger(p) || n! > 2 ** 20 || r! > 32 || p! > 4) {
    return false;
  }
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length !== KEY_BYTES) return false;
  const key = await derive(password, Buffer.from(parts[4]!, 'base64url'), n!, r!, p!);
  return timingSafeEqual(key, expected);
}

/** Work that takes as long as a real check, so an unknown email answers no faster than a wrong password. */
let dummyDigest: Promise<string> | undefined;
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyDigest ??= hashPassword('not a password anyone has');
  await verifyPassword(password, await dummyDigest);
  return false;
}

/** Why a proposed password is refused, in words for the person, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (length > PASSWORD_MAX_LENGTH) return `Choose a password of at most ${PASSWORD_MAX_LENGTH} characters.`;
  return undefined;
}

/**
 * A password made up for a person (the demo owner's first one, `studio password set --generate`, `password reset`):
 * 20 characters from an alphabet without look-alikes (no i, l, o, 0, 1), about 99 bits, shown once and typed once.
 */
export function madeUpPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return [...randomBytes(20)].map((b) => alphabet[b % alphabet.length]).join('');
}
