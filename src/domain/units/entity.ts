import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A unit of quantity (each, m², roll …): studio-level reference data. */
export const UNIT = defineEntity({ name: 'unit', table: 'units', owner: { column: 'studio_id', level: 'studio' } });

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const UNIT_AUDIT_KIND = auditKind('unit');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    unit: typeof UNIT_AUDIT_KIND;
  }
}
