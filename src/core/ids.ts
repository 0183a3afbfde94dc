import { hash, randomBytes, randomFillSync } from 'node:crypto';

/**
 * Random bytes for ids, drawn from the system's generator 4 KiB at a time and used once each: one call per 256 ids
 * instead of one each (every write mints at least one, for its audit event), as crypto.randomUUID batches its own.
 */
const pool = Buffer.alloc(4096);
let taken = pool.length;

/** 128 random bits, base32-ish lowercase (26 chars): opaque, never sequential, never composite. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export function newId(): string {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const start = taken;
  taken += 16;
  // 128 bits read 5 at a time (the last character takes the final 3 bits), with a small integer bit buffer.
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (let i = start; i < taken; i++) {
    buffer = (buffer << 8) | pool[i]!;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return out + ALPHABET[(buffer << (5 - bits)) & 31];
}

/** Ids accepted from callers: the shape we mint, so a malformed id is a clear 404 and never reaches SQL oddly. */
export const ID_PATTERN = /^[0-9a-z]{26}$/;

/** An API token: a recognisable prefix (secret scanners), then 256 random bits. Shown once, stored as a hash. */
export function newToken(prefix = 'studio'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

// One-shot (no Hash object per call): every request digests its token, and every versioned answer its body.
export const sha256 = (s: string | Buffer): string => hash('sha256', s, 'hex');

let isoMs = -1;
let isoText = '';
/** Now as ISO 8601 text; formatting costs more than the read, so requests in the same millisecond share the text. */
export const nowIso = (): string => {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
};

/**
 * Request ids only correlate a response with the logs, so they need not be random: a per-process random prefix and a
 * counter, cheaper than 128 fresh random bits on every request.
 */
const REQUEST_PREFIX = newId().slice(0, 10);
let requestCounter = 0;
export const nextRequestId = (): string => `${REQUEST_PREFIX}${(++requestCounter).toString(36).padStart(8, '0')}`;
