/**
 * People who sign in: a user may hold a password (scrypt, in the PHC-like form `scrypt$N$r$p$salt$hash`, never in the
 * clear), and failed sign-ins are counted per email address so that guessing is throttled. Members, invitations,
 * sessions and OAuth build on this. Portable SQL.
 */
export const name = 'people';
export const statements = [
  `ALTER TABLE users ADD COLUMN password_hash TEXT`,
  `ALTER TABLE users ADD COLUMN password_changed_at TEXT`,
  `CREATE TABLE sign_in_failures (
    email TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    first_failed_at TEXT NOT NULL,
    locked_until TEXT
  )`,
];
