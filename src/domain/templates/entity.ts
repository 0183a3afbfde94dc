import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A project template: a starting point for new projects (studio-level reference data). */
export const TEMPLATE = defineEntity({
  name: 'project template',
  table: 'project_templates',
  owner: { column: 'studio_id', level: 'studio' },
});

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const PROJECT_TEMPLATE_AUDIT_KIND = auditKind('project_template');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    project_template: typeof PROJECT_TEMPLATE_AUDIT_KIND;
  }
}
