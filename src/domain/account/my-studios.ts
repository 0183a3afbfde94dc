import type { ActionContext } from '../../core/context.js';
import { keysetPage, keysetSort, namedSorts, type PageRequest, sortNames } from '../kit/keyset-page.js';

const BY_NAME = keysetSort('my_studios', 'studios.name', { column: 'studios.id', field: 'studioId' });
/** `name` (the default order) or `-name`. */
export const MY_STUDIO_SORTS = namedSorts(
  { name: { column: 'studios.name' } },
  { column: 'studios.id', field: 'studioId' },
);
export const MY_STUDIO_SORT_NAMES = sortNames(MY_STUDIO_SORTS);

/**
 * Every studio where the caller's user is an active member, by name. A token acts in one studio: to work in another,
 * use a token created there (create_studio returns one for a new studio).
 */
export async function listMyStudios(ctx: ActionContext, q: PageRequest & { sort?: keyof typeof MY_STUDIO_SORTS }) {
  const caller = ctx.caller!;
  const qb = ctx.db
    .selectFrom('members')
    .innerJoin('studios', 'studios.id', 'members.studio_id')
    .select([
      'studios.id as studioId',
      'studios.name',
      'members.id as memberId',
      'members.role',
      'members.created_at as memberSince',
    ])
    .where('members.user_id', '=', caller.userId)
    .where('members.removed_at', 'is', null);
  const { rows, nextCursor } = await keysetPage(qb, q.sort ? MY_STUDIO_SORTS[q.sort] : BY_NAME, q);
  return { items: rows.map((r) => ({ ...r, current: r.studioId === caller.studioId })), nextCursor };
}
