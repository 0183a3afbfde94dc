import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/**
 * A studio member: a person's membership of one studio, with a role. A removed member keeps its row (removed_at set),
 * so what they did stays attributed; an input naming one is proved to be of the caller's studio, and the members
 * domain says whether a removed one will do.
 */
export const MEMBER = defineEntity({
  name: 'member',
  table: 'members',
  owner: { column: 'studio_id', level: 'studio' },
});

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const MEMBER_AUDIT_KIND = auditKind('member');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    member: typeof MEMBER_AUDIT_KIND;
  }
}
