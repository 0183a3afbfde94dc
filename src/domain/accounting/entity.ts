import { auditKind } from '../../core/audit-kinds.js';

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

declare module '../../../db/schema.js' {
  interface Database {
    accounting_connections: AccountingConnectionsTable;
    accounting_authorizations: AccountingAuthorizationsTable;
    accounting_account_mappings: AccountingAccountMappingsTable;
  }
}
