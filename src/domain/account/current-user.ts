import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { STUDIO_PERMISSIONS } from '../../core/permissions.js';
import { interfaceStateOf } from '../interface/state.js';

/**
 * Who the token acts for: the person, the studio and role it acts in, what that role allows, and their interface state
 * in that studio (what a client needs at start: the sidebar and whether the first-run flow is done).
 */
export async function currentUser(ctx: ActionContext) {
  const caller = ctx.caller!;
  const row = await ctx.db
    .selectFrom('users')
    .innerJoin('members', 'members.user_id', 'users.id')
    .innerJoin('studios', 'studios.id', 'members.studio_id')
    .select(['users.id', 'users.email', 'users.name', 'studios.id as studioId', 'studios.name as studioName'])
    .where('members.id', '=', caller.memberId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('UNAUTHENTICATED');
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    studio: { id: row.studioId, name: row.studioName },
    memberId: caller.memberId,
    role: caller.role,
    // In the union's own order, so the list reads the same every time.
    permissions: STUDIO_PERMISSIONS.filter((p) => caller.permissions.has(p)),
    currentTokenId: caller.tokenId,
    interfaceState: await interfaceStateOf(ctx),
  };
}
