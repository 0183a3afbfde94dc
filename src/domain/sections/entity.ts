import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A section (usually a room) of one project. */
export const SECTION = defineEntity({
  name: 'section',
  table: 'sections',
  owner: { column: 'project_id', level: 'project' },
});

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const SECTION_AUDIT_KIND = auditKind('section');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    section: typeof SECTION_AUDIT_KIND;
  }
}
