/**
 * Accounting: a studio's connection to Xero (its organisation, and the access and refresh tokens sealed with a key
 * derived from the server's secret, never kept in the clear), the authorization requests a person has started but not
 * finished (the PKCE verifier, sealed, bound to the studio and the member), and which revenue account and tax type each
 * kind of thing billed goes to. Portable SQL.
 */
export const name = 'accounting';
export const statements = [
  `CREATE TABLE accounting_connections (
    studio_id TEXT PRIMARY KEY REFERENCES studios(id),
    provider TEXT NOT NULL,
    status TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    tenant_name TEXT NOT NULL,
    access_token TEXT NOT NULL,
    refresh_token TEXT NOT NULL,
    access_expires_at TEXT NOT NULL,
    connected_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE TABLE accounting_authorizations (
    state TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    member_id TEXT NOT NULL,
    verifier TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX accounting_authorizations_by_studio ON accounting_authorizations (studio_id)`,
  `CREATE TABLE accounting_account_mappings (
    studio_id TEXT NOT NULL REFERENCES studios(id),
    charge_type TEXT NOT NULL,
    account_code TEXT NOT NULL,
    tax_type TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (studio_id, charge_type)
  )`,
];
