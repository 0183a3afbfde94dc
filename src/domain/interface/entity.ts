import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A saved view: personal, so another member's (or another studio's) answers as if it did not exist. */
export const SAVED_VIEW = defineEntity({
  name: 'saved view',
  table: 'saved_views',
  owner: { column: 'member_id', level: 'member' },
});

/**
 * A member's sidebar, for update_sidebar_state's version check. One per membership, found by the caller, never by an
 * id sent; before the first save it is the default at version 1.
 */
export const SIDEBAR_STATE = defineEntity({
  name: 'sidebar state',
  table: 'member_interface_state',
  owner: { column: 'member_id', level: 'member' },
});

/** A member's layout of one table (per project for a project's table), for update_table_layout's version check. */
export const TABLE_LAYOUT = defineEntity({
  name: 'table layout',
  table: 'interface_layouts',
  owner: { column: 'member_id', level: 'member' },
});

/** A member's layout of the inspector for one kind of record, for update_inspector_layout's version check. */
export const INSPECTOR_LAYOUT = defineEntity({
  name: 'inspector layout',
  table: 'interface_layouts',
  owner: { column: 'member_id', level: 'member' },
});

/** The kinds of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const SAVED_VIEW_AUDIT_KIND = auditKind('saved_view');
export const TABLE_LAYOUT_AUDIT_KIND = auditKind('table_layout');
export const INSPECTOR_LAYOUT_AUDIT_KIND = auditKind('inspector_layout');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    saved_view: typeof SAVED_VIEW_AUDIT_KIND;
    table_layout: typeof TABLE_LAYOUT_AUDIT_KIND;
    inspector_layout: typeof INSPECTOR_LAYOUT_AUDIT_KIND;
  }
}
