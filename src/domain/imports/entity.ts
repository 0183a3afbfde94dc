import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A spreadsheet import: it belongs to one project and is never addressable outside it. */
export const IMPORT = defineEntity({
  name: 'import',
  table: 'imports',
  owner: { column: 'project_id', level: 'project' },
});

/** A saved column mapping: the studio's own, for any of its projects' imports. */
export const IMPORT_MAPPING = defineEntity({
  name: 'import mapping',
  table: 'import_mappings',
  owner: { column: 'studio_id', level: 'studio' },
});

/** The kinds of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const IMPORT_AUDIT_KIND = auditKind('import');
export const IMPORT_MAPPING_AUDIT_KIND = auditKind('import_mapping');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    import: typeof IMPORT_AUDIT_KIND;
    import_mapping: typeof IMPORT_MAPPING_AUDIT_KIND;
  }
}
