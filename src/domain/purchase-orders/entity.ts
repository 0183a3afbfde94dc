import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';
import type { RevisionKind } from '../kit/revisions.js';

/** A purchase order: what the studio buys from one supplier for a project. */
export const PURCHASE_ORDER = defineEntity({
  name: 'purchase order',
  table: 'purchase_orders',
  owner: { column: 'project_id', level: 'project' },
});

/** A line of a purchase order: one schedule line, its quantity and trade price. */
export const PURCHASE_ORDER_LINE = defineEntity({
  name: 'purchase order line',
  table: 'purchase_order_lines',
  owner: { column: 'project_id', level: 'project' },
});

/** Where purchase order revisions are kept, for the shared revision machinery (src/domain/kit/revisions.ts). */
export const PURCHASE_ORDER_REVISIONS: RevisionKind = {
  table: 'purchase_order_revisions',
  parentColumn: 'purchase_order_id',
  noun: 'purchase order',
};

/** The kinds of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const PURCHASE_ORDER_AUDIT_KIND = auditKind('purchase_order');
export const PURCHASE_ORDER_REVISION_AUDIT_KIND = auditKind('purchase_order_revision');
export const PURCHASE_ORDER_DELIVERY_AUDIT_KIND = auditKind('purchase_order_delivery');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    purchase_order: typeof PURCHASE_ORDER_AUDIT_KIND;
    purchase_order_revision: typeof PURCHASE_ORDER_REVISION_AUDIT_KIND;
    purchase_order_delivery: typeof PURCHASE_ORDER_DELIVERY_AUDIT_KIND;
  }
}
