import { createHmac, timingSafeEqual } from 'node:crypto';
import { ID_PATTERN } from '../../core/ids.js';

/**
 * Short-lived private download links: `/downloads/<document id>.<studio id>.<expiry>.<signature>`, the signature an
 * HMAC-SHA256 under the server's key over the three fields, so a link names exactly one document of one studio until
 * one moment, and changing any character of it breaks it. The link is the authority (no login is asked, so it can be
 * handed to a browser or a mail client), hence the short life: minutes, not days.
 */

/** How long a link works unless asked otherwise, and at most. */
export const DEFAULT_LINK_MINUTES = 10;
export const MAX_LINK_MINUTES = 60;

const sign = (secret: Buffer, documentId: string, studioId: string, expires: string) =>
  createHmac('sha256', secret).update(`download\n${documentId}\n${studioId}\n${expires}`).digest();

export interface DownloadLink {
  path: string;
  expiresAt: string;
}

/** A link to one document of one studio, working for `minutes` from `now`. */
export function mintDownloadPath(
  secret: Buffer,
  target: { documentId: string; studioId: string },
  now: Date,
  minutes = DEFAULT_LINK_MINUTES,
): DownloadLink {
  const expires = Math.floor(now.getTime() / 1000) + minutes * 60;
  const signature = sign(secret, target.documentId, target.studioId, String(expires)).toString('base64url');
  return {
    path: `/downloads/${target.documentId}.${target.studioId}.${expires}.${signature}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

/**
 * What a link's token names, or undefined for any token that does not work: malformed, altered, signed with another
 * key, or expired. The signature is always computed and compared in constant time before anything is decided, so
 * these cases take the same work; the caller answers them all alike.
 */
export function verifyDownloadToken(
  secret: Buffer,
  token: string,
  now: Date,
): { documentId: string; studioId: string } | undefined {
  const parts = token.split('.');
  const [documentId = '', studioId = '', expires = '', signature = ''] = parts;
  // Compared as text, not decoded: base64 decoding ignores the spare low bits of the last character, so two spellings
  // would decode to the same bytes and an altered link would still pass.
  const expected = Buffer.from(sign(secret, documentId, studioId, expires).toString('base64url'));
  const given = Buffer.from(signature);
  const signed = given.length === expected.length && timingSafeEqual(given, expected);
  const wellFormed =
    parts.length === 4 && ID_PATTERN.test(documentId) && ID_PATTERN.test(studioId) && /^\d{1,12}$/.test(expires);
  const live = Number(expires) * 1000 > now.getTime();
  return signed && wellFormed && live ? { documentId, studioId } : undefined;
}
