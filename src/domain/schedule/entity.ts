import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A schedule line (an `items` id in the resource API); never addressable outside its project. */
export const LINE = defineEntity({ name: 'line', table: 'lines', owner: { column: 'project_id', level: 'project' } });

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const LINE_AUDIT_KIND = auditKind('line');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    line: typeof LINE_AUDIT_KIND;
  }
}
