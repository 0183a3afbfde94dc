import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { keysetPage, namedSorts, type PageRequest, sortNames } from '../kit/keyset-page.js';
import { PURCHASE_ORDER_REVISION_RECORD } from './record.js';

/** One revision whole. */
export async function presentRevision(ctx: Pick<ActionContext, 'db'>, revisionId: string) {
  const row = await ctx.db
    .selectFrom('purchase_order_revisions')
    .selectAll()
    .where('id', '=', revisionId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No purchase order revision ${revisionId} exists in this project.`);
  return PURCHASE_ORDER_REVISION_RECORD.present(row, {});
}

export const REVISION_SORTS = namedSorts({ number: { column: 'number' } }, { column: 'id' });
export const REVISION_SORT_NAMES = sortNames(REVISION_SORTS);

/** An order's revisions, first issued first unless sorted otherwise, each whole: they are few and never change. */
export async function listOrderRevisions(
  ctx: ActionContext,
  query: PageRequest & { purchaseOrderId: string; sort?: keyof typeof REVISION_SORTS | undefined },
) {
  const qb = ctx.db
    .selectFrom('purchase_order_revisions')
    .selectAll()
    .where('purchase_order_id', '=', query.purchaseOrderId);
  const { rows, nextCursor } = await keysetPage(qb, REVISION_SORTS[query.sort ?? 'number'], query);
  return { items: rows.map((r) => PURCHASE_ORDER_REVISION_RECORD.present(r, {})), nextCursor };
}
