import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';

/**
 * A line or a library product may newly name only an active supplier: an archived one stays on the records that had
 * it (history), but is not chosen again. `invoke` has already proved the supplier is the studio's.
 */
export async function assertActiveSupplier(
  ctx: Pick<ActionContext, 'queryRow'>,
  supplierId: string | null | undefined,
) {
  if (!supplierId) return;
  const s = await ctx.queryRow<{ name: string; archived_at: string | null }>(
    'SELECT name, archived_at FROM suppliers WHERE id = ?',
    supplierId,
  );
  if (s?.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      `The supplier ${s.name} is archived; choose an active supplier (list_suppliers).`,
    );
  }
}
