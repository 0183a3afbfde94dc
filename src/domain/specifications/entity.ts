import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A specification: a product sheet in the studio's library (studio-level reference data). */
export const SPECIFICATION = defineEntity({
  name: 'specification',
  table: 'specifications',
  owner: { column: 'studio_id', level: 'studio' },
});

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const SPECIFICATION_AUDIT_KIND = auditKind('specification');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    specification: typeof SPECIFICATION_AUDIT_KIND;
  }
}
