import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A document made from a project (a PDF, an export, a package): never addressable outside its project. */
export const DOCUMENT = defineEntity({
  name: 'document',
  table: 'documents',
  owner: { column: 'project_id', level: 'project' },
});

/** One email delivery of a project's document. */
export const DOCUMENT_DELIVERY = defineEntity({
  name: 'delivery',
  table: 'document_deliveries',
  owner: { column: 'project_id', level: 'project' },
});

/** The kinds of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const DOCUMENT_AUDIT_KIND = auditKind('document');
export const DOCUMENT_DELIVERY_AUDIT_KIND = auditKind('document_delivery');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    document: typeof DOCUMENT_AUDIT_KIND;
    document_delivery: typeof DOCUMENT_DELIVERY_AUDIT_KIND;
  }
}
