/**
 * Share verification: the one-time codes that prove a share's holder controls its recipient's mailbox, and the
 * verified sessions they open (the seed's "verified session in addition to the capability", for deciding an estimate
 * revision). A code is kept only as a salted digest with its wrong tries and when it was spent; a session only as the
 * digest of its secret, bound to one share, with the address it proved and the decision it was used for. Rows are never edited after they close (a
 * spent code, an expired session): they are the record of what was proved when. Portable SQL.
 */
export const name = 'share_verification';
export const statements = [
  `CREATE TABLE share_verification_codes (
    id TEXT PRIMARY KEY,
    share_id TEXT NOT NULL REFERENCES shares(id),
    code_digest TEXT NOT NULL,
    sent_to TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    wrong_tries INTEGER NOT NULL DEFAULT 0,
    spent_at TEXT
  )`,
  `CREATE INDEX share_verification_codes_by_share ON share_verification_codes (share_id, created_at)`,
  `CREATE TABLE share_verified_sessions (
    id TEXT PRIMARY KEY,
    share_id TEXT NOT NULL REFERENCES shares(id),
    code_id TEXT NOT NULL REFERENCES share_verification_codes(id),
    secret_digest TEXT NOT NULL,
    email TEXT NOT NULL,
    verified_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    decision_id TEXT
  )`,
  `CREATE UNIQUE INDEX share_verified_sessions_by_secret ON share_verified_sessions (secret_digest)`,
  // generate_document's estimate PDF names the revision it was drawn from.
  `ALTER TABLE documents ADD COLUMN source_revision_id TEXT`,
];
