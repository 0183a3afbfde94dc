/**
 * Whether an authorization request named its redirect_uri (RFC 6749 §4.1.3: the token request must then send the same
 * one; when it was left out, the client's one registered address was used and the token request may leave it out
 * too). Codes made before this migration count as named: they live ten minutes, and asking for it is the safe side.
 * Portable SQL.
 */
export const name = 'oauth_code_redirect_named';
export const statements = [`ALTER TABLE oauth_codes ADD COLUMN redirect_uri_named INTEGER NOT NULL DEFAULT 1`];
