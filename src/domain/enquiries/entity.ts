import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A supplier enquiry: a project's request to suppliers for prices and lead times, never addressable outside it. */
export const ENQUIRY = defineEntity({
  name: 'enquiry',
  table: 'enquiries',
  owner: { column: 'project_id', level: 'project' },
});

/** A supplier's recorded answer to an enquiry; it belongs to the enquiry's project. */
export const ENQUIRY_RESPONSE = defineEntity({
  name: 'enquiry response',
  table: 'enquiry_responses',
  owner: { column: 'project_id', level: 'project' },
});

/** The kinds of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const ENQUIRY_AUDIT_KIND = auditKind('enquiry');
export const ENQUIRY_RESPONSE_AUDIT_KIND = auditKind('enquiry_response');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    enquiry: typeof ENQUIRY_AUDIT_KIND;
    enquiry_response: typeof ENQUIRY_RESPONSE_AUDIT_KIND;
  }
}
