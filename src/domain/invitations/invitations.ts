import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { AssignableRole } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { linkBase } from '../serving/heartbeat.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { startOperation } from '../../jobs/operations.js';
import { deliveryConfigured } from '../documents/mail-config.js';
import { namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery } from '../kit/listing.js';
import { normalizeEmail } from '../people/sign-in.js';
import { INVITATION_EMAIL } from './email-job.js';
import { INVITATION_RECORD, InvitationEmail, type InvitationRow, InvitationState } from './record.js';
import { invitationUrl, mintInvitationToken } from './token.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long an invitation works unless the inviter says otherwise. */
export const DEFAULT_INVITATION_DAYS = 7;

/** An invitation as read: its row and the name of the member who sent it. */
export type InvitationRecord = InvitationRow & { inviter_name: string };

/** Where an invitation stands: acceptance and revocation are final; otherwise it is pending until it expires. */
export function invitationState(row: Pick<InvitationRow, 'accepted_at' | 'revoked_at' | 'expires_at'>, now: string) {
  if (row.accepted_at) return 'accepted' as const;
  if (row.revoked_at) return 'revoked' as const;
  return row.expires_at <= now ? ('expired' as const) : ('pending' as const);
}

/** An invitation as the API shows it (declared in record.ts): never its token or digest, only its last 4 characters. */
export function presentInvitation(row: InvitationRecord, now: string) {
  return INVITATION_RECORD.present(row, {
    state: invitationState(row, now),
    invitedBy: { memberId: row.invited_by, name: row.inviter_name },
  });
}
export type PresentedInvitation = ReturnType<typeof presentInvitation>;

function invitationRecords(db: Kysely<Database>) {
  return db
    .selectFrom('invitations')
    .innerJoin('members', 'members.id', 'invitations.invited_by')
    .innerJoin('users', 'users.id', 'members.user_id')
    .selectAll('invitations')
    .select('users.name as inviter_name');
}

export async function loadInvitation(db: Kysely<Database>, studioId: string, id: string): Promise<InvitationRecord> {
  const row = await invitationRecords(db)
    .where('invitations.id', '=', id)
    .where('invitations.studio_id', '=', studioId)
    .executeTakeFirst();
  if (!row)
    throw new ServiceError('NOT_FOUND', `No invitation ${id} exists in your studio; list_invitations lists them.`);
  return row;
}

export const INVITATION_SORTS = namedSorts(
  { createdAt: { column: 'invitations.created_at' }, email: { column: 'invitations.email' } },
  { column: 'invitations.id' },
);

export const INVITATION_LISTING = defineListing({
  filters: {
    state: InvitationState.optional().describe('Only invitations in this state; default all.'),
    email: InvitationEmail.optional().describe('Only invitations to this address.'),
  },
  sorts: INVITATION_SORTS,
  defaultSort: '-createdAt',
  defaultSays: '-createdAt (newest first)',
});

/** The studio's invitations, newest first unless `sort` says otherwise; `state` keeps those in one state. */
export async function listInvitations(ctx: ActionContext, q: ListingQuery<typeof INVITATION_LISTING>) {
  let qb = invitationRecords(ctx.db).where('invitations.studio_id', '=', ctx.studioId);
  if (q.email) qb = qb.where('invitations.email', '=', normalizeEmail(q.email));
  if (q.state === 'accepted') qb = qb.where('invitations.accepted_at', 'is not', null);
  else if (q.state) {
    qb = qb.where('invitations.accepted_at', 'is', null);
    if (q.state === 'revoked') qb = qb.where('invitations.revoked_at', 'is not', null);
    else {
      qb = qb
        .where('invitations.revoked_at', 'is', null)
        .where('invitations.expires_at', q.state === 'expired' ? '<=' : '>', ctx.now);
    }
  }
  const { rows, nextCursor } = await INVITATION_LISTING.page(qb, q);
  return { items: rows.map((r) => presentInvitation(r, ctx.now)), nextCursor };
}

/** The refusal of inviting someone who already is an active member. */
async function refuseMembers(ctx: ActionContext, email: string) {
  const member = await ctx.db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['members.id', 'users.name'])
    .where('members.studio_id', '=', ctx.studioId)
    .where('members.removed_at', 'is', null)
    .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email))
    .executeTakeFirst();
  if (member) {
    throw new ServiceError(
      'ALREADY_MEMBER',
      `${email} is already a member of the studio (${member.name}, member ${member.id}); change their role with update_member_role.`,
    );
  }
}

/**
 * How the link reaches its person, decided now: by an email this server sends (when it can: the operation that sends
 * it mints the token, so the token never exists outside the email), or a token minted here and shown once.
 */
async function dispatch(ctx: ActionContext, invitationId: string, action: string) {
  if (deliveryConfigured(ctx.config)) {
    const op = await startOperation(ctx, {
      kind: INVITATION_EMAIL.kind,
      action,
      scope: 'workspace:manage',
      input: { invitationId },
    });
    return {
      columns: {
        delivery: 'email' as const,
        email_status: 'sending' as const,
        email_error: null,
        email_operation_id: op.id,
        emailed_at: null,
        token_hash: null,
        token_hint: null,
      },
      token: null,
    };
  }
  const { token, hash, hint } = mintInvitationToken();
  return {
    columns: {
      delivery: 'link' as const,
      email_status: null,
      email_error: null,
      email_operation_id: null,
      emailed_at: null,
      token_hash: hash,
      token_hint: hint,
    },
    token,
  };
}

/** The answer to create and resend: the invitation, and its token and link when they are shown (null when emailed). */
async function issued(ctx: ActionContext, row: InvitationRecord, token: string | null) {
  const { baseUrl, ...serving } = await linkBase(ctx.queryRow, ctx.config);
  return {
    ...presentInvitation(row, ctx.now),
    token,
    url: token === null ? null : invitationUrl(baseUrl, token),
    ...serving,
  };
}

const expiryAfter = (now: string, days: number) => new Date(Date.parse(now) + days * DAY_MS).toISOString();

export interface CreateInvitationInput {
  email: string;
  role: AssignableRole;
  expiresInDays?: number | undefined;
}

/**
 * Invites an address to the studio with a role. Refused for an active member (ALREADY_MEMBER) and for an address with
 * a pending invitation (INVITATION_PENDING: resend that one); an expired or revoked one does not stand in the way.
 */
export async function createInvitation(ctx: ActionContext, input: CreateInvitationInput) {
  const email = normalizeEmail(input.email);
  await refuseMembers(ctx, email);
  const pending = await ctx.db
    .selectFrom('invitations')
    .select(['id', 'expires_at'])
    .where('studio_id', '=', ctx.studioId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', ctx.now)
    .executeTakeFirst();
  if (pending) {
    throw new ServiceError(
      'INVITATION_PENDING',
      `${email} already has a pending invitation (${pending.id}, until ${pending.expires_at}); send it again with resend_invitation, or revoke_invitation it first.`,
    );
  }
  const id = newId();
  const days = input.expiresInDays ?? DEFAULT_INVITATION_DAYS;
  const { columns, token } = await dispatch(ctx, id, 'create_invitation');
  const made = { email, role: input.role, inviter: ctx.caller!.memberId, lifetimeDays: days, updatedAt: ctx.now };
  const row: InvitationRow = {
    ...INVITATION_RECORD.newRow(
      { ...made, issuedAt: ctx.now, expiresAt: expiryAfter(ctx.now, days) },
      { id, ownerId: ctx.studioId, now: ctx.now },
    ),
    ...columns,
  };
  await ctx.db.insertInto('invitations').values(row).execute();
  ctx.audit({
    targetKind: 'invitation',
    targetId: id,
    summary: `Invited ${email} as ${input.role}${columns.delivery === 'email' ? ' (by email)' : ''}`,
    changes: {
      created: { from: null, to: { email, role: input.role, expiresAt: row.expires_at, delivery: row.delivery } },
    },
  });
  return issued(ctx, await loadInvitation(ctx.db, ctx.studioId, id), token);
}

/** The refusal of changing an invitation that was accepted or revoked. */
function closed(row: InvitationRecord, act: string) {
  return new ServiceError(
    'INVITATION_CLOSED',
    row.accepted_at
      ? `Invitation ${row.id} was accepted on ${row.accepted_at.slice(0, 10)} (member ${row.accepted_member_id}); it cannot be ${act}. Manage the member instead.`
      : `Invitation ${row.id} was revoked on ${row.revoked_at!.slice(0, 10)}; it cannot be ${act}. Create a new invitation with create_invitation.`,
  );
}

/**
 * Sends a pending or expired invitation again with a new token (the old link stops working at once) and a new expiry,
 * the same number of days from now.
 */
export async function resendInvitation(ctx: ActionContext, invitationId: string) {
  const before = await loadInvitation(ctx.db, ctx.studioId, invitationId);
  if (before.accepted_at || before.revoked_at) throw closed(before, 'sent again');
  await refuseMembers(ctx, before.email);
  const { columns, token } = await dispatch(ctx, before.id, 'resend_invitation');
  const expiresAt = expiryAfter(ctx.now, before.lifetime_days);
  await ctx.db
    .updateTable('invitations')
    .set({ ...columns, issued_at: ctx.now, expires_at: expiresAt, updated_at: ctx.now })
    .where('id', '=', before.id)
    .execute();
  ctx.audit({
    targetKind: 'invitation',
    targetId: before.id,
    summary: `Sent the invitation to ${before.email} again${columns.delivery === 'email' ? ' (by email)' : ''}, with a new link`,
    changes: {
      expiresAt: { from: before.expires_at, to: expiresAt },
      tokenHint: { from: before.token_hint, to: columns.token_hint },
      delivery: { from: before.delivery, to: columns.delivery },
    },
  });
  return issued(ctx, await loadInvitation(ctx.db, ctx.studioId, before.id), token);
}

/** Revokes an invitation: its link stops working at once. Revoking a revoked one changes nothing. */
export async function revokeInvitation(ctx: ActionContext, invitationId: string) {
  const before = await loadInvitation(ctx.db, ctx.studioId, invitationId);
  if (before.accepted_at) throw closed(before, 'revoked');
  if (before.revoked_at) {
    ctx.unchanged();
    return presentInvitation(before, ctx.now);
  }
  await ctx.db
    .updateTable('invitations')
    .set({ revoked_at: ctx.now, revoked_by: ctx.caller!.memberId, updated_at: ctx.now })
    .where('id', '=', before.id)
    .execute();
  ctx.audit({
    targetKind: 'invitation',
    targetId: before.id,
    summary: `Revoked the invitation to ${before.email}`,
    changes: { revokedAt: { from: null, to: ctx.now } },
  });
  return presentInvitation({ ...before, revoked_at: ctx.now, revoked_by: ctx.caller!.memberId }, ctx.now);
}
