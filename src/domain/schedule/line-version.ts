import type { ActionContext } from '../../core/context.js';

/**
 * A change kept beside a line (a custom property value, a photograph) is a change to the line: its version moves on
 * by one, so an agent holding the old ETag learns of it. Versioned actions bump the version `invoke` checked, inside
 * the same transaction, so nothing can have written the line in between; unversioned ones (adding a photograph) bump
 * the version they read in that transaction.
 */
export async function bumpLineVersion(
  ctx: Pick<ActionContext, 'db' | 'now'>,
  line: { id: string; version: number },
): Promise<number> {
  await ctx.db
    .updateTable('lines')
    .set({ version: line.version + 1, updated_at: ctx.now })
    .where('id', '=', line.id)
    .where('version', '=', line.version)
    .execute();
  return line.version + 1;
}
