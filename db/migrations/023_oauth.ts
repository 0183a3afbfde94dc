/**
 * OAuth for HTTP MCP: the server is its own authorization server. Clients register themselves (RFC 7591, public
 * clients only), a person consents once per connection (a grant: one member of one studio, the scopes they allowed,
 * the resource the tokens are for), and the grant's codes, access tokens and refresh tokens are 256-bit random
 * secrets kept only as SHA-256 digests, looked up by them (so each digest is unique). Codes and refresh tokens are
 * spent once (`used_at`); a spent refresh token presented again revokes its whole grant. 021 and 022 are other
 * branches'. Portable SQL.
 */
export const name = 'oauth';
export const statements = [
  `CREATE TABLE oauth_clients (
    id TEXT PRIMARY KEY,
    name TEXT,
    redirect_uris TEXT NOT NULL,
    metadata TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE TABLE oauth_grants (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES oauth_clients(id),
    member_id TEXT NOT NULL REFERENCES members(id),
    scopes TEXT NOT NULL,
    resource TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    revoked_reason TEXT
  )`,
  `CREATE INDEX oauth_grants_by_member ON oauth_grants (member_id, created_at)`,
  `CREATE TABLE oauth_codes (
    code_hash TEXT PRIMARY KEY,
    consent_id TEXT NOT NULL,
    client_id TEXT NOT NULL REFERENCES oauth_clients(id),
    member_id TEXT NOT NULL REFERENCES members(id),
    redirect_uri TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    scopes TEXT NOT NULL,
    resource TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    grant_id TEXT REFERENCES oauth_grants(id)
  )`,
  `CREATE UNIQUE INDEX oauth_codes_by_consent ON oauth_codes (consent_id)`,
  `CREATE TABLE oauth_access_tokens (
    id TEXT PRIMARY KEY,
    grant_id TEXT NOT NULL REFERENCES oauth_grants(id),
    token_hash TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX oauth_access_tokens_by_hash ON oauth_access_tokens (token_hash)`,
  `CREATE INDEX oauth_access_tokens_by_grant ON oauth_access_tokens (grant_id, expires_at)`,
  `CREATE TABLE oauth_refresh_tokens (
    id TEXT PRIMARY KEY,
    grant_id TEXT NOT NULL REFERENCES oauth_grants(id),
    token_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  )`,
  `CREATE UNIQUE INDEX oauth_refresh_tokens_by_hash ON oauth_refresh_tokens (token_hash)`,
  `CREATE INDEX oauth_refresh_tokens_by_grant ON oauth_refresh_tokens (grant_id, expires_at)`,
];
