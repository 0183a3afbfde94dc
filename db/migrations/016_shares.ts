/**
 * Shares: issued capabilities for one document of a project (for now its live client document). A share is never
 * edited: its token is kept only as a SHA-256 digest (looked up by it, so the digest is unique), and revocation is a
 * row appended to share_revocations (at most one per share), never a column changed on the share. No column records a
 * link being opened. 015 is the client document's. Portable SQL.
 */
export const name = 'shares';
export const statements = [
  `CREATE TABLE shares (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    document_kind TEXT NOT NULL,
    document_id TEXT NOT NULL,
    intent TEXT NOT NULL,
    recipient_email TEXT,
    token_hash TEXT NOT NULL,
    token_hint TEXT NOT NULL,
    issued_at TEXT NOT NULL,
    issued_by TEXT NOT NULL REFERENCES members(id),
    expires_at TEXT
  )`,
  `CREATE UNIQUE INDEX shares_by_token_hash ON shares (token_hash)`,
  `CREATE INDEX shares_by_project ON shares (project_id, issued_at)`,
  `CREATE TABLE share_revocations (
    id TEXT PRIMARY KEY,
    share_id TEXT NOT NULL REFERENCES shares(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    revoked_at TEXT NOT NULL,
    revoked_by TEXT NOT NULL REFERENCES members(id),
    reason TEXT
  )`,
  `CREATE UNIQUE INDEX share_revocations_by_share ON share_revocations (share_id)`,
  `CREATE INDEX share_revocations_by_project ON share_revocations (project_id, revoked_at)`,
];
