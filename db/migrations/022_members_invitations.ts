/**
 * Members and invitations, and sign-in sessions for people. An invitation is a single-use, expiring token for one
 * email address and role in one studio, kept only as a SHA-256 digest (null while the email that will carry it is
 * still to be sent: the sending mints it); it is accepted, revoked or left to expire, never deleted. A session is a
 * person signed in on this server's pages (`/login`, an invitation's page, the OAuth consent page), its cookie's secret
 * kept only as a digest. `users_email_lower` serves the sign-in lookup, which compares addresses case-insensitively.
 * 021 is interface state's. Portable SQL.
 */
export const name = 'members_invitations';
export const statements = [
  `CREATE TABLE invitations (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    invited_by TEXT NOT NULL REFERENCES members(id),
    created_at TEXT NOT NULL,
    lifetime_days INTEGER NOT NULL,
    token_hash TEXT,
    token_hint TEXT,
    issued_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    delivery TEXT NOT NULL,
    email_status TEXT,
    email_error TEXT,
    email_operation_id TEXT,
    emailed_at TEXT,
    accepted_at TEXT,
    accepted_member_id TEXT REFERENCES members(id),
    revoked_at TEXT,
    revoked_by TEXT REFERENCES members(id),
    updated_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX invitations_by_token_hash ON invitations (token_hash)`,
  `CREATE INDEX invitations_by_studio ON invitations (studio_id, created_at)`,
  `CREATE INDEX invitations_by_email ON invitations (studio_id, email)`,
  `CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    token_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX sessions_by_token_hash ON sessions (token_hash)`,
  `CREATE INDEX sessions_by_user ON sessions (user_id)`,
  `CREATE INDEX sessions_by_expiry ON sessions (expires_at)`,
  `CREATE INDEX users_email_lower ON users (lower(email))`,
];
