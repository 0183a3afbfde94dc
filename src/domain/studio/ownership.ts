import type { ConfirmationContext } from '../../core/confirmation.js';
import type { ActionContext, Caller } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { loadStudio, presentStudio, writeStudio } from './studio.js';

/** The member who would become the owner, under the rules checked before anyone is asked: active, and not you. */
async function newOwner(ctx: Pick<ActionContext, 'db'>, caller: Caller, memberId: string) {
  // invoke has proved the member is this studio's; removed members keep their row but cannot own anything.
  const target = await ctx.db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['members.id', 'members.role', 'members.removed_at', 'users.name', 'users.email'])
    .where('members.id', '=', memberId)
    .executeTakeFirstOrThrow();
  if (target.removed_at) throw new ServiceError('NOT_FOUND', `No active member ${memberId} exists in your studio.`);
  if (target.id === caller.memberId) {
    throw new ServiceError('VALIDATION_FAILED', 'You already own this studio; name another member.', {
      errors: [{ path: 'memberId', message: 'This is you.' }],
    });
  }
  return target;
}

/** The question before a transfer (see the action's `confirmation`). */
export async function transferQuestion(ctx: ConfirmationContext, input: { memberId: string }) {
  const target = await newOwner(ctx, ctx.caller, input.memberId);
  const studio = await loadStudio(ctx.db, ctx.studioId);
  return `Hand ${studio.name} to ${target.name} (${target.email})? They become its owner and you become an admin; only they can hand it back.`;
}

/**
 * Hands the studio to another active member. The caller (the owner: only the owner holds studio:own) becomes an admin,
 * the target becomes the owner, and the studio's version moves on because its owner is part of its record.
 * Irreversible by the caller, hence the person's confirmation, which invoke has obtained.
 */
export async function transferOwnership(ctx: ActionContext, input: { memberId: string }) {
  const caller = ctx.caller!;
  const target = await newOwner(ctx, caller, input.memberId);

  const demoted = await ctx.db
    .updateTable('members')
    .set({ role: 'admin' })
    .where('id', '=', caller.memberId)
    .where('role', '=', 'owner')
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (demoted.numUpdatedRows !== 1n)
    throw new ServiceError('FORBIDDEN', 'Only the studio owner can transfer ownership.');
  await ctx.db.updateTable('members').set({ role: 'owner' }).where('id', '=', target.id).execute();

  const owners = await ctx.db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('studio_id', '=', ctx.studioId)
    .where('role', '=', 'owner')
    .where('removed_at', 'is', null)
    .executeTakeFirstOrThrow();
  // Never commit a studio with zero or two owners; the transaction rolls back with this error.
  if (Number(owners.n) !== 1) throw new ServiceError('INTERNAL');

  const before = await loadStudio(ctx.db, ctx.studioId);
  const studio = await writeStudio(ctx, before, {}, { present: (row) => presentStudio(ctx.db, row) });
  ctx.audit({
    targetKind: 'member',
    targetId: target.id,
    summary: `Transferred studio ownership to ${target.name}`,
    changes: { owner: { from: caller.memberId, to: target.id }, role: { from: target.role, to: 'owner' } },
  });
  ctx.audit({
    targetKind: 'member',
    targetId: caller.memberId,
    summary: 'The previous owner became an admin',
    changes: { role: { from: 'owner', to: 'admin' } },
  });
  return {
    studio,
    owner: { memberId: target.id, role: 'owner' as const },
    previousOwner: { memberId: caller.memberId, role: 'admin' as const },
  };
}
