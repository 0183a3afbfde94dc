import { auditKind } from '../../core/audit-kinds.js';
import type { AccountingPushStatus, AccountingRevisionPart } from '../../../db/vocabulary.js';

/** The kind of record accounting's audit events are about: the studio's connection to its provider. */
export const ACCOUNTING_CONNECTION_AUDIT_KIND = auditKind('accounting_connection');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    accounting_connection: typeof ACCOUNTING_CONNECTION_AUDIT_KIND;
  }
}

export interface AccountingConnectionsTable {
  studio_id: string;
  provider: string;
  status: 'connected' | 'needs_reconnect';
  tenant_id: string;
  tenant_name: string;
  /** Sealed (sealed.ts), never the token itself. */
  access_token: string;
  /** Sealed (sealed.ts), never the token itself. */
  refresh_token: string;
  access_expires_at: string;
  connected_by: string;
  created_at: string;
  updated_at: string;
}

export interface AccountingAuthorizationsTable {
  state: string;
  studio_id: string;
  member_id: string;
  /** The PKCE verifier, sealed. */
  verifier: string;
  expires_at: string;
  created_at: string;
}

export interface AccountingAccountMappingsTable {
  studio_id: string;
  charge_type: string;
  account_code: string;
  tax_type: string;
  updated_at: string;
}

export interface AccountingPushesTable {
  id: string;
  studio_id: string;
  project_id: string;
  revision_id: string | null;
  revision_part: AccountingRevisionPart | null;
  /** JSON: the ids of the charges billed. */
  charge_ids: string;
  /** JSON: the invoice as built (built.ts), what is sent. */
  invoice: string;
  idempotency_key: string;
  status: AccountingPushStatus;
  provider_invoice_id: string | null;
  provider_invoice_number: string | null;
  requested_by: string;
  created_at: string;
  updated_at: string;
}

export interface AccountingRevisionClaimsTable {
  revision_id: string;
  part: AccountingRevisionPart;
  push_id: string;
}

export interface AccountingContactsTable {
  studio_id: string;
  /** The client's id, or `name:` and the project's plain client label. */
  client_key: string;
  contact_id: string;
  created_at: string;
}

declare module '../../../db/schema.js' {
  interface Database {
    accounting_pushes: AccountingPushesTable;
    accounting_revision_claims: AccountingRevisionClaimsTable;
    accounting_contacts: AccountingContactsTable;
    accounting_connections: AccountingConnectionsTable;
    accounting_authorizations: AccountingAuthorizationsTable;
    accounting_account_mappings: AccountingAccountMappingsTable;
  }
}
