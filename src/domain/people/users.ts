/**
 * A person with an account on this server: one row per email address, whatever studios they are a member of (a
 * membership is in members). Made by signing up, by accepting an invitation, or by the CLI.
 */
export interface UserRow {
  id: string;
  email: string;
  name: string;
  created_at: string;
  /** scrypt digest (`scrypt$N$r$p$salt$hash`, see passwords.ts), null until the person sets a password. */
  password_hash: string | null;
  password_changed_at: string | null;
}
declare module '../../../db/schema.js' {
  interface Database {
    users: UserRow;
  }
}
