import type { ActionContext } from '../../core/context.js';
import { decodeCursor, encodeCursor } from '../paging.js';

/**
 * Every studio where the caller's user is an active member, by name. A token acts in one studio: to work in another,
 * use a token created there (create_studio returns one for a new studio).
 */
export async function listMyStudios(ctx: ActionContext, q: { cursor?: string; limit?: number }) {
  const caller = ctx.caller!;
  const limit = q.limit ?? 500;
  let qb = ctx.db
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
  if (q.cursor) {
    const [name, id] = decodeCursor(q.cursor, 'my_studios') as [string, string];
    qb = qb.where((eb) =>
      eb.or([eb('studios.name', '>', name), eb.and([eb('studios.name', '=', name), eb('studios.id', '>', id)])]),
    );
  }
  const rows = await qb
    .orderBy('studios.name')
    .orderBy('studios.id')
    .limit(limit + 1)
    .execute();
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    items: pageRows.map((r) => ({ ...r, current: r.studioId === caller.studioId })),
    nextCursor: more && last ? encodeCursor('my_studios', [last.name, last.studioId]) : null,
  };
}
