import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/**
 * A project's client document settings, for the version check of update_client_document_settings (idField
 * `projectId`: a project has one set). Its table is a view that gives every project a version, 1 while nothing was
 * saved, so the first update is checked like every later one.
 */
export const CLIENT_DOCUMENT_SETTINGS = defineEntity({
  name: 'client document settings record',
  table: 'client_document_settings_versions',
  owner: { column: 'project_id', level: 'project' },
});

/** The kinds of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const CLIENT_DOCUMENT_SETTINGS_AUDIT_KIND = auditKind('client_document_settings');
/** A minted version of the client document: no entity, since inputs name it by its number. */
export const CLIENT_DOCUMENT_VERSION_AUDIT_KIND = auditKind('client_document_version');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    client_document_settings: typeof CLIENT_DOCUMENT_SETTINGS_AUDIT_KIND;
    client_document_version: typeof CLIENT_DOCUMENT_VERSION_AUDIT_KIND;
  }
}
