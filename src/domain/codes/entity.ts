import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A code scheme (list_codes …): studio-level reference data that numbers lines. */
export const CODE_SCHEME = defineEntity({
  name: 'code scheme',
  table: 'code_schemes',
  owner: { column: 'studio_id', level: 'studio' },
});

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const CODE_SCHEME_AUDIT_KIND = auditKind('code_scheme');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    code_scheme: typeof CODE_SCHEME_AUDIT_KIND;
  }
}
