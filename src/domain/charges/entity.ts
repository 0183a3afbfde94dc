import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A project charge: what the studio bills besides goods; never addressable outside its project. */
export const PROJECT_CHARGE = defineEntity({
  name: 'charge',
  table: 'project_charges',
  owner: { column: 'project_id', level: 'project' },
});

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const PROJECT_CHARGE_AUDIT_KIND = auditKind('project_charge');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    project_charge: typeof PROJECT_CHARGE_AUDIT_KIND;
  }
}
