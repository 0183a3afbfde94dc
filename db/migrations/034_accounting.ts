/**
 * Accounting: a studio's connection to Xero (its organisation, and the access and refresh tokens sealed with a key
 * derived from the server's secret, never kept in the clear), the authorization requests a person has started but not
 * finished (the PKCE verifier, sealed, bound to the studio and the member), and which revenue account and tax type each
 * kind of thing billed goes to; the invoices pushed (what each bills, the invoice as built, its Idempotency-Key, what
 * Xero answered), the claims that stop a deposit or an estimate's accepted pieces being billed twice, the Xero contact
 * each client became, and the sync events (every attempt and its outcome). Portable SQL.
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
  `CREATE TABLE accounting_pushes (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    revision_id TEXT REFERENCES estimate_revisions(id),
    revision_part TEXT,
    charge_ids TEXT NOT NULL,
    invoice TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    status TEXT NOT NULL,
    provider_invoice_id TEXT,
    provider_invoice_number TEXT,
    requested_by TEXT NOT NULL REFERENCES members(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX accounting_pushes_by_project ON accounting_pushes (project_id, created_at)`,
  `CREATE TABLE accounting_revision_claims (
    revision_id TEXT NOT NULL REFERENCES estimate_revisions(id),
    part TEXT NOT NULL,
    push_id TEXT NOT NULL REFERENCES accounting_pushes(id),
    PRIMARY KEY (revision_id, part)
  )`,
  `CREATE TABLE accounting_contacts (
    studio_id TEXT NOT NULL REFERENCES studios(id),
    client_key TEXT NOT NULL,
    contact_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (studio_id, client_key)
  )`,
  `CREATE TABLE accounting_sync_events (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    push_id TEXT NOT NULL REFERENCES accounting_pushes(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    outcome TEXT NOT NULL,
    provider_invoice_id TEXT,
    provider_invoice_number TEXT,
    reason TEXT,
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX accounting_sync_events_by_studio ON accounting_sync_events (studio_id, created_at)`,
];
