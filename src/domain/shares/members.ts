import type { ActionContext } from '../../core/context.js';

/** A member's name as the studio knows them now, for the issuer or revoker a share record names. */
export async function memberName(ctx: Pick<ActionContext, 'queryRow'>, memberId: string): Promise<string> {
  const row = await ctx.queryRow<{ name: string }>(
    'SELECT u.name FROM members m JOIN users u ON u.id = m.user_id WHERE m.id = ?',
    memberId,
  );
  return row?.name ?? '';
}
