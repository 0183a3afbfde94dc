/** Purchase order drafts: listed, read, made (with lines), their terms and lines changed under the order's version. */
import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import { z } from 'zod';
import { PURCHASE_ORDER_STATES } from '../../../db/vocabulary.js';
import { refTo } from '../../core/schema-marks.js';
import { Id } from '../../core/values.js';
import { SUPPLIER } from '../suppliers/entity.js';
import { nextNumberInProject } from '../kit/next-number.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { assertActiveSupplier } from '../suppliers/active-supplier.js';
import {
  activeLines,
  assertEditable,
  loadOrder,
  presentOrder,
  presentWhole,
  readWhole,
  wholePresenter,
} from './draft.js';
import { archiveLines, draftLines, type NewOrderLine, type OrderLinePatch, patchLines } from './lines.js';
import { PURCHASE_ORDER_RECORD, type PurchaseOrderRow } from './record.js';

export const ORDER_SORTS = namedSorts(
  { number: { column: 'purchase_orders.number' }, updatedAt: { column: 'purchase_orders.updated_at' } },
  { column: 'purchase_orders.id' },
);

export const ORDER_LISTING = defineListing({
  filters: {
    ...projectScope,
    state: z.enum(PURCHASE_ORDER_STATES).optional().describe('Only orders in this state.'),
    supplierId: refTo(Id, SUPPLIER).optional().describe('Only orders to this supplier.'),
  },
  sorts: ORDER_SORTS,
  defaultSort: 'number',
});

/** A project's purchase orders, by number unless sorted otherwise, each with its supplier and draft totals. */
export async function listOrders(ctx: ActionContext, query: ListingQuery<typeof ORDER_LISTING>) {
  let qb = ctx.db
    .selectFrom('purchase_orders')
    .innerJoin('suppliers', 'suppliers.id', 'purchase_orders.supplier_id')
    .selectAll('purchase_orders')
    .select('suppliers.name as supplier_name')
    .where('purchase_orders.project_id', '=', query.projectId);
  if (query.state) qb = qb.where('purchase_orders.state', '=', query.state);
  if (query.supplierId) qb = qb.where('purchase_orders.supplier_id', '=', query.supplierId);
  const { rows, nextCursor } = await ORDER_LISTING.page(qb, query);
  const lines = await activeLines(
    ctx.db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map(({ supplier_name, ...r }) =>
      presentOrder(
        r,
        lines.filter((l) => l.purchase_order_id === r.id),
        supplier_name,
      ),
    ),
    nextCursor,
  };
}

export const getOrder = (ctx: ActionContext, projectId: string, orderId: string) => readWhole(ctx, projectId, orderId);

/** The studio facts an order shows: its name, and its tax rate and the project's currency for new lines. */
export async function orderHead(ctx: Pick<ActionContext, 'queryRow'>, projectId: string) {
  const head = await ctx.queryRow<{ studio_name: string; tax_rate4: string; currency: Currency }>(
    `SELECT COALESCE(s.brand_display_name, s.name) AS studio_name, s.tax_rate4, p.currency
     FROM projects p JOIN studios s ON s.id = p.studio_id WHERE p.id = ?`,
    projectId,
  );
  if (!head) throw new ServiceError('NOT_FOUND', `No project ${projectId} exists in your studio.`);
  return head;
}

export type OrderTerms = CreateFields<typeof PURCHASE_ORDER_RECORD.spec.fields>;

/** Makes a draft order to one supplier (with lines, when given), numbered next in its project. */
export async function createOrder(
  ctx: ActionContext,
  projectId: string,
  terms: OrderTerms,
  lines: readonly NewOrderLine[] = [],
  orderAgain = false,
) {
  await assertActiveSupplier(ctx, terms.supplierId);
  const head = await orderHead(ctx, projectId);
  const number = await nextNumberInProject(ctx.db, 'purchase_orders', projectId);
  const order = PURCHASE_ORDER_RECORD.newRow(
    { ...terms, number, currency: head.currency, state: 'draft', revisionCount: 0, createdBy: ctx.caller!.memberId },
    { id: newId(), ownerId: projectId, now: ctx.now },
  );
  await ctx.db.insertInto('purchase_orders').values(order).execute();
  const rows = await draftLines(ctx, { ...order, taxRate4: head.tax_rate4 }, lines, { orderAgain });
  const supplier = await ctx.queryRow<{ name: string }>('SELECT name FROM suppliers WHERE id = ?', order.supplier_id);
  ctx.audit({
    targetKind: 'purchase_order',
    targetId: order.id,
    projectId,
    summary: `Created purchase order ${number} to ${supplier?.name ?? 'a supplier'} with ${rows.length} line${rows.length === 1 ? '' : 's'}`,
    changes: { created: { from: null, to: number } },
  });
  return presentWhole(order, rows, [], supplier?.name ?? '');
}

/**
 * Writes an order's change through the one version-checked update, answering it whole. Its lines are part of what
 * changed: the before-row is shown with the lines it had, so a change to them alone is a change too.
 */
async function writeOrder(
  ctx: ActionContext,
  before: PurchaseOrderRow,
  showBefore: (row: PurchaseOrderRow) => ReturnType<typeof presentWhole>,
  cols: object,
  summary: string,
) {
  const showAfter = await wholePresenter(ctx, before);
  return versionedUpdate(ctx, 'purchase_orders', before, cols, {
    present: (row) => (row.version === before.version ? showBefore(row) : showAfter(row)),
    audit: () => ({ targetKind: 'purchase_order', projectId: before.project_id, summary }),
  });
}

/** Loads an order that may still change, with how it shows before the change. */
async function editable(ctx: ActionContext, projectId: string, orderId: string) {
  const order = await loadOrder(ctx, projectId, orderId);
  assertEditable(order);
  return { order, showBefore: await wholePresenter(ctx, order) };
}

/** Changes an order's terms and what it says about some of its lines. */
export async function updateOrderDraft(
  ctx: ActionContext,
  projectId: string,
  orderId: string,
  patch: PatchFields<typeof PURCHASE_ORDER_RECORD.spec.fields>,
  linePatches: readonly OrderLinePatch[] = [],
) {
  const { order, showBefore } = await editable(ctx, projectId, orderId);
  const cols = PURCHASE_ORDER_RECORD.patchColumns(patch);
  if (!Object.keys(cols).length && !linePatches.length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one term or line to change.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  await patchLines(ctx, order, linePatches);
  return writeOrder(ctx, order, showBefore, cols, `Updated the draft of purchase order ${order.number}`);
}

/** Adds schedule lines to an order. */
export async function addOrderLines(
  ctx: ActionContext,
  projectId: string,
  orderId: string,
  lines: readonly NewOrderLine[],
  orderAgain = false,
) {
  const { order, showBefore } = await editable(ctx, projectId, orderId);
  const head = await orderHead(ctx, projectId);
  const rows = await draftLines(ctx, { ...order, taxRate4: head.tax_rate4 }, lines, { orderAgain });
  const n = rows.length;
  return writeOrder(
    ctx,
    order,
    showBefore,
    {},
    `Added ${n} line${n === 1 ? '' : 's'} to purchase order ${order.number}`,
  );
}

/** Removes lines from an order (archived, never deleted). */
export async function removeOrderLines(ctx: ActionContext, projectId: string, orderId: string, ids: readonly string[]) {
  const { order, showBefore } = await editable(ctx, projectId, orderId);
  const rows = await archiveLines(ctx, order, ids);
  const named = rows.map((r) => r.reference ?? r.description).join(', ');
  return writeOrder(ctx, order, showBefore, {}, `Removed ${named} from purchase order ${order.number}`);
}
