import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** An API token: personal, so another member's answers as if it did not exist. */
export const API_TOKEN = defineEntity({
  name: 'api token',
  table: 'api_tokens',
  owner: { column: 'member_id', level: 'member' },
});

/** The kinds of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const API_TOKEN_AUDIT_KIND = auditKind('api_token');
/**
 * An OAuth connection (an MCP client a member let act for them). The OAuth pages (src/domain/oauth/) write its
 * events, but nothing in the catalog imports them: it is declared here, with the member's other credential, so that
 * every process that serves the catalog (the stdio MCP server too) can publish and read it.
 */
export const OAUTH_CONNECTION_AUDIT_KIND = auditKind('oauth_connection');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    api_token: typeof API_TOKEN_AUDIT_KIND;
    oauth_connection: typeof OAUTH_CONNECTION_AUDIT_KIND;
  }
}
