/**
 * What the supplier is sent of an order: one issued revision's frozen content (studio, supplier, lines at trade
 * prices, totals, delivery details), never the draft and never the schedule. The content was built without any
 * client price, markup, project or client name (see contentOf in issue.ts), so a document drawn from it cannot show
 * one; the delivery address is the studio's own words, so a client's name is on it only if the studio wrote it there.
 */
import type { RevisionState } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { loadOrder } from './draft.js';
import { PURCHASE_ORDER_REVISION_RECORD } from './record.js';
import type { PurchaseOrderContent } from './shapes.js';

type Reader = Pick<ActionContext, 'db'>;

export interface SupplierCopy {
  revisionId: string;
  state: RevisionState;
  content: PurchaseOrderContent;
}

/** An order's revision by number, or its current one: NOT_FOUND for a draft never issued or a number never issued. */
export async function supplierCopy(
  ctx: Reader,
  projectId: string,
  purchaseOrderId: string,
  revisionNumber?: number,
): Promise<SupplierCopy> {
  const order = await loadOrder(ctx, projectId, purchaseOrderId);
  let qb = ctx.db.selectFrom('purchase_order_revisions').selectAll().where('purchase_order_id', '=', order.id);
  qb =
    revisionNumber === undefined
      ? qb.where('id', '=', order.current_revision_id ?? '')
      : qb.where('number', '=', revisionNumber);
  const row = await qb.executeTakeFirst();
  if (!row) {
    throw new ServiceError(
      'NOT_FOUND',
      revisionNumber === undefined
        ? `Purchase order ${order.number} is a draft never issued; issue_purchase_order_revision first, then make its PDF.`
        : `Purchase order ${order.number} has no revision ${revisionNumber}; list_purchase_order_revisions lists them.`,
    );
  }
  const revision = PURCHASE_ORDER_REVISION_RECORD.present(row, {});
  return { revisionId: revision.id, state: revision.state, content: revision.content };
}

/** Where a purchase order document goes by default: the email of the supplier its revision was issued to. */
export async function supplierEmailOfRevision(ctx: Reader, revisionId: string) {
  const row = await ctx.db
    .selectFrom('purchase_order_revisions')
    .innerJoin('purchase_orders', 'purchase_orders.id', 'purchase_order_revisions.purchase_order_id')
    .innerJoin('suppliers', 'suppliers.id', 'purchase_orders.supplier_id')
    .select(['suppliers.name', 'suppliers.email'])
    .where('purchase_order_revisions.id', '=', revisionId)
    .executeTakeFirst();
  return row ? { name: row.name, email: row.email } : undefined;
}
