import type { ConfirmationContext } from '../../core/confirmation.js';
import type { ActionContext } from '../../core/context.js';
import { loadStudio } from '../studio/studio.js';
import { loadMember, type MemberRecord, presentMember } from './members.js';
import { ownerStays } from './roles.js';

/**
 * Ends a membership at once: the member is marked removed (the row stays, so what they did stays theirs), every API
 * token of the membership is revoked and every project grant deleted, in the same transaction. Authentication reads
 * the membership on every request, so the next request with any of their tokens is refused 401; revoking the tokens
 * as well means a later invitation brings the person back with none of the old ones working and no old grants. The
 * membership's OAuth connections end the same way (their lookup joins on the removal too; ending them keeps it so).
 */
async function endMembership(ctx: ActionContext, member: MemberRecord, summary: string) {
  const tokens = await ctx.db
    .updateTable('api_tokens')
    .set({ revoked_at: ctx.now })
    .where('member_id', '=', member.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  const connections = await ctx.db
    .updateTable('oauth_grants')
    .set({ revoked_at: ctx.now, revoked_reason: 'member_removed' })
    .where('member_id', '=', member.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  const grants = await ctx.db.deleteFrom('project_grants').where('member_id', '=', member.id).executeTakeFirst();
  await ctx.db.updateTable('members').set({ removed_at: ctx.now }).where('id', '=', member.id).execute();
  const tokensRevoked = Number(tokens.numUpdatedRows);
  const grantsRemoved = Number(grants.numDeletedRows);
  ctx.audit({
    targetKind: 'member',
    targetId: member.id,
    summary,
    changes: {
      removedAt: { from: null, to: ctx.now },
      apiTokensRevoked: { from: null, to: tokensRevoked },
      projectGrantsRemoved: { from: null, to: grantsRemoved },
      oauthConnectionsEnded: { from: null, to: Number(connections.numUpdatedRows) },
    },
  });
  return {
    member: presentMember({ ...member, removed_at: ctx.now }, ctx.caller?.memberId),
    tokensRevoked,
    grantsRemoved,
  };
}

/** The studio's name, for the question put to the person. */
const studioName = async (ctx: ConfirmationContext) => (await loadStudio(ctx.db, ctx.studioId)).name;

/** The question before one's own membership ends, by leave_studio or by removing oneself. */
const leaving = (studio: string) =>
  `Leave ${studio}? Every API token and OAuth connection you have here stops working at once (the one asking too) and your project grants are deleted; only a new invitation brings you back.`;

/** The member to remove, removed already or not, under the rule checked before anyone is asked: the owner stays. */
async function memberToRemove(ctx: Pick<ActionContext, 'db' | 'studioId'>, memberId: string) {
  const member = await loadMember(ctx.db, ctx.studioId, memberId);
  if (member.role === 'owner') throw ownerStays(`${member.name} is the owner and cannot be removed`);
  return member;
}

/** The question before a removal (see the action's `confirmation`); none for a member removed already. */
export async function removalQuestion(ctx: ConfirmationContext, input: { memberId: string }) {
  const member = await memberToRemove(ctx, input.memberId);
  if (member.removed_at) return null;
  const studio = await studioName(ctx);
  if (member.id === ctx.caller.memberId) return leaving(studio);
  return `Remove ${member.name} (${member.email}) from ${studio}? Their API tokens and OAuth connections here stop working at once and their project grants are deleted; only a new invitation brings them back.`;
}

/** Removing: the owner stays (a transfer first); a removed member is answered as it is. The person has confirmed. */
export async function removeMember(ctx: ActionContext, input: { memberId: string }) {
  const member = await memberToRemove(ctx, input.memberId);
  if (member.removed_at) {
    ctx.unchanged();
    return { member: presentMember(member, ctx.caller?.memberId), tokensRevoked: 0, grantsRemoved: 0 };
  }
  const self = member.id === ctx.caller?.memberId;
  return endMembership(ctx, member, self ? 'Left the studio' : `Removed ${member.name} from the studio`);
}

/** The caller's own membership, which the owner cannot leave before a transfer. */
async function ownMembership(ctx: Pick<ActionContext, 'db' | 'studioId'>, memberId: string) {
  const member = await loadMember(ctx.db, ctx.studioId, memberId);
  if (member.role === 'owner') throw ownerStays('You own this studio and cannot leave it');
  return member;
}

/** The question before leaving (see the action's `confirmation`). */
export async function leavingQuestion(ctx: ConfirmationContext) {
  await ownMembership(ctx, ctx.caller.memberId);
  return leaving(await studioName(ctx));
}

/** Leaving: the caller's own membership ends, as a removal would. The person has confirmed. */
export async function leaveStudio(ctx: ActionContext) {
  const member = await ownMembership(ctx, ctx.caller!.memberId);
  return endMembership(ctx, member, 'Left the studio');
}
