import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A client: studio-level reference data that projects refer to. */
export const CLIENT = defineEntity({
  name: 'client',
  table: 'clients',
  owner: { column: 'studio_id', level: 'studio' },
});

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const CLIENT_AUDIT_KIND = auditKind('client');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    client: typeof CLIENT_AUDIT_KIND;
  }
}
