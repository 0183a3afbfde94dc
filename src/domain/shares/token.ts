import { newToken, sha256 } from '../../core/ids.js';

/**
 * A share token: `share_` (so secret scanners and people recognise it) and 256 random bits in base64url, the same
 * shape as an API token. Only its SHA-256 digest is stored, as for API tokens: the token is random enough that a fast
 * digest suffices. It is shown once, in the answer that mints it, and never written anywhere else.
 */
export function mintShareToken() {
  const token = newToken('share');
  return { token, hash: shareTokenDigest(token), hint: token.slice(-4) };
}

/**
 * The digest a token is looked up by. Inputs longer than any token are cut first, so a huge path costs no more to
 * hash than a short one; the cut text can never equal a token (a token is far shorter than the cut).
 */
export const shareTokenDigest = (token: string): string => sha256(token.slice(0, 1024));

/** The page a share opens, served anonymously by this server at `/s/<token>`. */
export const shareUrl = (baseUrl: string, token: string): string => `${baseUrl}/s/${token}`;

/**
 * Where a photograph of a shared document is served by the token alone (relative to the server's base URL), in the
 * two sizes a page shows: `display` (long edge at most 1568 px) and `thumbnail` (320 px).
 */
export const sharedPhotographPath = (token: string, photographId: string, variant: 'display' | 'thumbnail'): string =>
  `/s/${token}/photographs/${encodeURIComponent(photographId)}?variant=${variant}`;
