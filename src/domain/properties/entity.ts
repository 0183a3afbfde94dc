import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A project's custom property: a column of its schedule, never addressable outside its project. */
export const CUSTOM_PROPERTY = defineEntity({
  name: 'custom property',
  table: 'custom_properties',
  owner: { column: 'project_id', level: 'project' },
});

/** An option of a choice property; it belongs to the property's project (and, checked by its domain, the property). */
export const PROPERTY_OPTION = defineEntity({
  name: 'option',
  table: 'custom_property_options',
  owner: { column: 'project_id', level: 'project' },
});

/** The kinds of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const CUSTOM_PROPERTY_AUDIT_KIND = auditKind('custom_property');
export const CUSTOM_PROPERTY_OPTION_AUDIT_KIND = auditKind('custom_property_option');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    custom_property: typeof CUSTOM_PROPERTY_AUDIT_KIND;
    custom_property_option: typeof CUSTOM_PROPERTY_OPTION_AUDIT_KIND;
  }
}
