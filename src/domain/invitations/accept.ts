import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { GroupMemo, Store } from '../../../db/store.js';
import { appendAuditEvents } from '../../core/audit.js';
import type { ActionContext, AuditInput } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId, nowIso } from '../../core/ids.js';
import { issueToken, presentToken } from '../account/api-tokens.js';
import { loadMember, presentMember } from '../members/members.js';
import { insertSession } from '../people/sessions.js';
import { normalizeEmail } from '../people/sign-in.js';
import { addMember } from '../studio/onboarding.js';
import { type LiveInvitation, resolveInvitationToken } from './open.js';
import { INVITATION_REFUSED } from './token.js';

/**
 * Makes the invited person a member with the invited role, in the caller's transaction, and closes the invitation:
 * a new membership, or a former member's own one back (their row keeps its id, so what they did before stays theirs;
 * their old tokens and grants were ended when they left). Someone already a member is refused and the invitation
 * stays open. Answers the membership and the audit events for the studio joined.
 */
export async function joinByInvitation(db: Kysely<Database>, inv: LiveInvitation, userId: string, now: string) {
  const existing = await db
    .selectFrom('members')
    .select(['id', 'removed_at'])
    .where('studio_id', '=', inv.studioId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (existing && !existing.removed_at) {
    throw new ServiceError(
      'ALREADY_MEMBER',
      `You are already a member of ${inv.studioName}; the invitation stays unused.`,
    );
  }
  let memberId: string;
  if (existing) {
    memberId = existing.id;
    await db
      .updateTable('members')
      .set({ role: inv.role, removed_at: null, created_at: now })
      .where('id', '=', memberId)
      .execute();
  } else memberId = await addMember(db, inv.studioId, userId, inv.role, now);
  const closed = await db
    .updateTable('invitations')
    .set({ accepted_at: now, accepted_member_id: memberId, updated_at: now })
    .where('id', '=', inv.id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  // Resolved in this same transaction, so only a programming error gets here; refuse rather than join twice.
  if (Number(closed.numUpdatedRows) !== 1) throw new ServiceError('FORBIDDEN', INVITATION_REFUSED);
  const member = await loadMember(db, inv.studioId, memberId);
  const events: AuditInput[] = [
    {
      targetKind: 'invitation',
      targetId: inv.id,
      summary: `${member.name} accepted the invitation to ${inv.email}`,
      changes: { acceptedAt: { from: null, to: now }, acceptedMemberId: { from: null, to: memberId } },
    },
    {
      targetKind: 'member',
      targetId: memberId,
      summary: `${member.name} joined the studio as ${inv.role}${existing ? ' (again)' : ''}`,
      changes: { role: { from: null, to: inv.role }, invitationId: { from: null, to: inv.id } },
    },
  ];
  return { member, events };
}

/**
 * accept_invitation: the caller, signed in with an API token of another studio (or this one, if they left it), joins
 * the invitation's studio. The invitation names a person by address: only the account with that address may accept
 * it. Answers the membership and a new API token acting in the studio joined (shown once), since the caller's token
 * acts in its own studio only. The acceptance is recorded in the studio joined, not in the caller's.
 */
export async function acceptInvitation(ctx: ActionContext, token: string) {
  const caller = ctx.caller!;
  const inv = await resolveInvitationToken(ctx.queryRow, token, ctx.now);
  const me = await ctx.queryRow<{ email: string }>('SELECT email FROM users WHERE id = ?', caller.userId);
  if (!me || normalizeEmail(me.email) !== inv.email) {
    throw new ServiceError(
      'FORBIDDEN',
      `This invitation is for another email address than yours (${me?.email ?? 'unknown'}); ask the studio to invite that address instead.`,
    );
  }
  const { member, events } = await joinByInvitation(ctx.db, inv, caller.userId, ctx.now);
  const { row, secret } = await issueToken(ctx.db, member.id, `Joined ${inv.studioName}`, ctx.now);
  for (const e of events) ctx.audit({ ...e, elsewhere: { studioId: inv.studioId, memberId: member.id } });
  return {
    studio: { id: inv.studioId, name: inv.studioName },
    member: presentMember(member, member.id),
    token: presentToken(row, caller.tokenId, ctx.now),
    tokenSecret: secret,
  };
}

/** What accepting on the invitation's page answers: the studio joined and the session the person is now signed in by. */
export interface AcceptedOnPage {
  studioName: string;
  role: string;
  session: { secret: string; expiresAt: string };
}

/** Records an acceptance made on the page in the studio joined, as the new member, by the web channel. */
function recordOnPage(
  tx: Kysely<Database>,
  memo: GroupMemo,
  inv: LiveInvitation,
  memberId: string,
  events: AuditInput[],
  now: string,
) {
  const actor = { kind: 'member' as const, id: memberId, via: 'web' as const };
  return appendAuditEvents(
    { db: tx, memo },
    { studioId: inv.studioId, actor, action: 'accept_invitation', at: now, events },
  );
}

/**
 * A new person accepts on the invitation's page: their account is made with the invited address, the name they gave
 * and the password digest (hashed by the caller beforehand, never inside a transaction), they become a member, and
 * a session signs them in, all in one commit. If the address has an account by now, nothing is made ('account_exists'):
 * the page asks for that account's password instead.
 */
export async function acceptAsNewPerson(
  store: Store,
  token: string,
  person: { name: string; passwordHash: string },
): Promise<AcceptedOnPage | 'account_exists'> {
  return store.write(async (tx, queryRow, memo) => {
    const now = nowIso();
    const inv = await resolveInvitationToken(queryRow, token, now);
    if (inv.person) return 'account_exists' as const;
    const userId = newId();
    await tx
      .insertInto('users')
      .values({
        id: userId,
        email: inv.email,
        name: person.name,
        created_at: now,
        password_hash: person.passwordHash,
        password_changed_at: now,
      })
      .execute();
    const { member, events } = await joinByInvitation(tx, inv, userId, now);
    await recordOnPage(tx, memo, inv, member.id, events, now);
    return { studioName: inv.studioName, role: inv.role, session: await insertSession(tx, userId, now) };
  });
}

/**
 * Someone who already has an account with the invited address accepts on the page, having just proved it with their
 * password (checkSignIn, by the caller): they become a member and are signed in, in one commit.
 */
export async function acceptAsSignedInPerson(store: Store, token: string, userId: string): Promise<AcceptedOnPage> {
  return store.write(async (tx, queryRow, memo) => {
    const now = nowIso();
    const inv = await resolveInvitationToken(queryRow, token, now);
    if (inv.person?.userId !== userId) throw new ServiceError('FORBIDDEN', INVITATION_REFUSED);
    const { member, events } = await joinByInvitation(tx, inv, userId, now);
    await recordOnPage(tx, memo, inv, member.id, events, now);
    return { studioName: inv.studioName, role: inv.role, session: await insertSession(tx, userId, now) };
  });
}
