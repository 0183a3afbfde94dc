import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A share of a project's document: never addressable outside its project (another project's answers 404). */
export const SHARE = defineEntity({
  name: 'share',
  table: 'shares',
  owner: { column: 'project_id', level: 'project' },
});

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const SHARE_AUDIT_KIND = auditKind('share');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    share: typeof SHARE_AUDIT_KIND;
  }
}
