import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
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

/** Removing: the owner stays (a transfer first); a removed member is answered as it is; the person must confirm. */
export async function removeMember(ctx: ActionContext, input: { memberId: string; confirm?: boolean | undefined }) {
  const member = await loadMember(ctx.db, ctx.studioId, input.memberId);
  if (member.role === 'owner') throw ownerStays(`${member.name} is the owner and cannot be removed`);
  if (member.removed_at) {
    ctx.unchanged();
    return { member: presentMember(member, ctx.caller?.memberId), tokensRevoked: 0, grantsRemoved: 0 };
  }
  // Asked last, so a person is only asked to confirm a removal that would happen.
  if (input.confirm !== true) {
    throw new ServiceError(
      'CONFIRMATION_REQUIRED',
      `Removing ${member.name} (${member.email}) ends their access at once: their API tokens stop working and their project grants are deleted; only a new invitation brings them back. Ask the person, then repeat with confirm: true.`,
    );
  }
  const self = member.id === ctx.caller?.memberId;
  return endMembership(ctx, member, self ? 'Left the studio' : `Removed ${member.name} from the studio`);
}

/** Leaving: the caller's own membership ends, as a removal would; the owner cannot leave before a transfer. */
export async function leaveStudio(ctx: ActionContext, input: { confirm?: boolean | undefined }) {
  const member = await loadMember(ctx.db, ctx.studioId, ctx.caller!.memberId);
  if (member.role === 'owner') throw ownerStays('You own this studio and cannot leave it');
  if (input.confirm !== true) {
    throw new ServiceError(
      'CONFIRMATION_REQUIRED',
      'Leaving ends your access to this studio at once: every API token you have here stops working (this one too) and your project grants are deleted; only a new invitation brings you back. Ask the person, then repeat with confirm: true.',
    );
  }
  return endMembership(ctx, member, 'Left the studio');
}
