import type { AssignableRole } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { ROLE_DESCRIPTIONS, ROLE_PERMISSIONS, ROLES } from '../../core/permissions.js';
import { loadActiveMember, presentMember } from './members.js';

/** The refusal of anything that would leave a studio without its one owner. */
export const ownerStays = (what: string) =>
  new ServiceError(
    'OWNERSHIP_TRANSFER_REQUIRED',
    `${what}: a studio always has exactly one owner. The owner first hands the studio to another member with transfer_studio_ownership (and becomes an admin).`,
  );

/** The roles with what each allows, whether an invitation or a role change may give it, and who holds it now. */
export async function listMemberRoles(ctx: ActionContext) {
  const counts = await ctx.db
    .selectFrom('members')
    .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
    .where('studio_id', '=', ctx.studioId)
    .where('removed_at', 'is', null)
    .groupBy('role')
    .execute();
  const held = new Map(counts.map((c) => [c.role, Number(c.n)]));
  return {
    roles: ROLES.map((role) => ({
      role,
      description: ROLE_DESCRIPTIONS[role],
      permissions: [...ROLE_PERMISSIONS[role]],
      assignable: role !== 'owner',
      activeMembers: held.get(role) ?? 0,
    })),
  };
}

/**
 * Gives an active member another role; it applies from their next request. The owner's role changes only by a
 * transfer, and no one becomes owner this way. The same role again changes nothing.
 */
export async function updateMemberRole(ctx: ActionContext, input: { memberId: string; role: AssignableRole }) {
  const before = await loadActiveMember(ctx.db, ctx.studioId, input.memberId);
  if (before.role === 'owner') throw ownerStays(`${before.name} is the owner, whose role changes only by a transfer`);
  if (before.role === input.role) {
    ctx.unchanged();
    return presentMember(before, ctx.caller?.memberId);
  }
  await ctx.db.updateTable('members').set({ role: input.role }).where('id', '=', before.id).execute();
  ctx.audit({
    targetKind: 'member',
    targetId: before.id,
    summary: `Changed ${before.name}'s role from ${before.role} to ${input.role}`,
    changes: { role: { from: before.role, to: input.role } },
  });
  return presentMember({ ...before, role: input.role }, ctx.caller?.memberId);
}
