import { createHash, randomBytes } from 'node:crypto';

/** 128 random bits, base32-ish lowercase (26 chars): opaque, never sequential, never composite. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export function newId(): string {
  const bytes = randomBytes(16);
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 26; i++) {
    out = ALPHABET[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

/** Ids accepted from callers: the shape we mint, so a malformed id is a clear 404 and never reaches SQL oddly. */
export const ID_PATTERN = /^[0-9a-z]{26}$/;

/** An API token: a recognisable prefix (secret scanners), then 256 random bits. Shown once, stored as a hash. */
export function newToken(prefix = 'studio'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

export const sha256 = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

export const nowIso = (): string => new Date().toISOString();
