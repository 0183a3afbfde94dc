import { createHmac, timingSafeEqual } from 'node:crypto';
import { ID_PATTERN } from '../../core/ids.js';

/**
 * Short-lived private download links:
 * `/downloads/<document id>.<studio id>.<member id>.<credential>.<state>.<expiry>.<signature>`, the signature an
 * HMAC-SHA256 under the server's key over the six fields, so a link names exactly one document of one studio, made by
 * one member through one credential (`api-<token id>`, `oauth-<grant id>`, or `member` for a session of the member's
 * own), while the document was `live` or already `archived`, until one moment; changing any character of it breaks
 * it. The link is the authority (no login is asked, so it can be handed to a browser or a mail client), hence the
 * short life: minutes, not days. Who made it is checked again at each download (download.ts openDownload).
 */

/** How long a link works unless asked otherwise, and at most. */
export const DEFAULT_LINK_MINUTES = 10;
export const MAX_LINK_MINUTES = 60;

const CREDENTIAL = /^(?:api-[0-9a-z]{26}|oauth-[0-9a-z]{26}|member)$/;

/** What a link names: the document, and who made it through what, and whether the document was archived then. */
export interface DownloadTarget {
  documentId: string;
  studioId: string;
  memberId: string;
  /** `api-<API token id>`, `oauth-<OAuth grant id>`, or `member` (a session of the member's own, or the local owner). */
  credential: string;
  /** Whether the document was archived when the link was made: a link made while it was live stops at its archiving. */
  archived: boolean;
}

const fields = (t: DownloadTarget) => [
  t.documentId,
  t.studioId,
  t.memberId,
  t.credential,
  t.archived ? 'archived' : 'live',
];

const sign = (secret: Buffer, signed: readonly string[], expires: string) =>
  createHmac('sha256', secret)
    .update(['download v2', ...signed, expires].join('\n'))
    .digest();

export interface DownloadLink {
  path: string;
  expiresAt: string;
}

/** A link to one document of one studio, made by one member through one credential, working for `minutes` from `now`. */
export function mintDownloadPath(
  secret: Buffer,
  target: DownloadTarget,
  now: Date,
  minutes = DEFAULT_LINK_MINUTES,
): DownloadLink {
  const expires = Math.floor(now.getTime() / 1000) + minutes * 60;
  const signed = fields(target);
  const signature = sign(secret, signed, String(expires)).toString('base64url');
  return {
    path: `/downloads/${signed.join('.')}.${expires}.${signature}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

/**
 * What a link's token names, or undefined for any token that does not work: malformed, altered, signed with another
 * key, or expired. The signature is always computed and compared in constant time before anything is decided, so
 * these cases take the same work; the caller answers them all alike.
 */
export function verifyDownloadToken(secret: Buffer, token: string, now: Date): DownloadTarget | undefined {
  const parts = token.split('.');
  const [documentId = '', studioId = '', memberId = '', credential = '', state = '', expires = '', signature = ''] =
    parts;
  // Compared as text, not decoded: base64 decoding ignores the spare low bits of the last character, so two spellings
  // would decode to the same bytes and an altered link would still pass.
  const expected = Buffer.from(
    sign(secret, [documentId, studioId, memberId, credential, state], expires).toString('base64url'),
  );
  const given = Buffer.from(signature);
  const signed = given.length === expected.length && timingSafeEqual(given, expected);
  const wellFormed =
    parts.length === 7 &&
    ID_PATTERN.test(documentId) &&
    ID_PATTERN.test(studioId) &&
    ID_PATTERN.test(memberId) &&
    CREDENTIAL.test(credential) &&
    (state === 'live' || state === 'archived') &&
    /^\d{1,12}$/.test(expires);
  const live = Number(expires) * 1000 > now.getTime();
  return signed && wellFormed && live
    ? { documentId, studioId, memberId, credential, archived: state === 'archived' }
    : undefined;
}
