import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** An invitation to the studio: another studio's answers as if it did not exist. */
export const INVITATION = defineEntity({
  name: 'invitation',
  table: 'invitations',
  owner: { column: 'studio_id', level: 'studio' },
});

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const INVITATION_AUDIT_KIND = auditKind('invitation');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    invitation: typeof INVITATION_AUDIT_KIND;
  }
}
