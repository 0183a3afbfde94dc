import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** The studio itself: its own owner, so its id is compared with the caller's studio id. */
export const STUDIO = defineEntity({ name: 'studio', table: 'studios', owner: { column: 'id', level: 'studio' } });

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const STUDIO_AUDIT_KIND = auditKind('studio');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    studio: typeof STUDIO_AUDIT_KIND;
  }
}
