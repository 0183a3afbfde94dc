import { auditKind } from '../../core/audit-kinds.js';

/** The kind of record accounting's audit events are about: the studio's connection to its provider. */
export const ACCOUNTING_CONNECTION_AUDIT_KIND = auditKind('accounting_connection');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    accounting_connection: typeof ACCOUNTING_CONNECTION_AUDIT_KIND;
  }
}
