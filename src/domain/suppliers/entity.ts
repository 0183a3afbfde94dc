import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A supplier: studio-level reference data. */
export const SUPPLIER = defineEntity({
  name: 'supplier',
  table: 'suppliers',
  owner: { column: 'studio_id', level: 'studio' },
});

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const SUPPLIER_AUDIT_KIND = auditKind('supplier');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    supplier: typeof SUPPLIER_AUDIT_KIND;
  }
}
