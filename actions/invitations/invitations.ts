import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as invitations from '../../src/domain/invitations/invitations.js';
import { AssignableRole } from '../members/records.js';
import { InvitationId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { Invitation, InvitationEmail, INVITATION_EX, IssuedInvitation } from './records.js';

export const listInvitations = defineAction({
  name: 'list_invitations',
  kind: 'procedure',
  effect: 'query',
  domain: 'invitations',
  summary: "List the studio's invitations, newest first, never their links.",
  description:
    'Every invitation the studio sent, newest first (sort: createdAt for oldest first, email by address): the address, role, who invited, state (pending, accepted, revoked, expired), when the current link expires and its last 4 characters, and for emailed ones whether the mail server took the email (emailStatus). state: pending keeps those whose link works now. A link is never shown again: resend_invitation makes a new one.',
  scope: 'workspace:manage',
  input: invitations.INVITATION_LISTING.input,
  output: page(Invitation),
  errors: [],
  example: { state: 'pending' },
  handler: (ctx, input) => invitations.listInvitations(ctx, input),
});

export const createInvitation = defineAction({
  name: 'create_invitation',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'invitations',
  summary: 'Invite someone to join the studio with a role; the link is emailed or shown once.',
  description:
    'Makes a single-use link for one email address and role (admin, designer, assistant or viewer; list_member_roles says what each allows), working for expiresInDays (1 to 30, default 7). When this server sends email (STUDIO_SMTP_URL), it emails the link to the address (delivery: email; emailStatus says when the mail server took it) and the answer carries no link. Otherwise the answer carries token and url once (delivery: link): give the url to the person, who opens it to set their name and password; someone with an account accepts with accept_invitation. An address that is already an active member answers ALREADY_MEMBER; one with a pending invitation INVITATION_PENDING (resend_invitation it). Send a fresh commandKey: a retry with it answers the same invitation without its link.',
  intents: ['invite a colleague', 'add someone to the studio', 'give a freelancer access'],
  scope: 'workspace:manage',
  keyed: true,
  shownOnce: ['token', 'url'],
  input: z.strictObject({
    email: InvitationEmail,
    role: AssignableRole,
    expiresInDays: z.int().min(1).max(30).optional().describe('Whole days until the link stops working; default 7.'),
  }),
  output: IssuedInvitation,
  errors: ['ALREADY_MEMBER', 'INVITATION_PENDING'],
  example: { email: 'sam@example.com', role: 'designer', commandKey: '6d1f3a5c-7e9b-4d2f-8a1c-3e5f7b9d1a2c' },
  handler: (ctx, input) => invitations.createInvitation(ctx, input),
});

export const resendInvitation = defineAction({
  name: 'resend_invitation',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'invitations',
  summary: 'Renew a pending or expired invitation: a new link, emailed again or shown once.',
  description:
    "Makes a new link for the invitation (the old one stops working at once) that works for the invitation's number of days from now, and emails it when this server sends email, or answers it once as token and url. Use it when the email was lost or refused (emailStatus: failed) or the link expired. An accepted or revoked invitation answers INVITATION_CLOSED. Send a fresh commandKey: a retry with it answers the same invitation without its link.",
  scope: 'workspace:manage',
  keyed: true,
  shownOnce: ['token', 'url'],
  input: z.strictObject({ invitationId: InvitationId.describe('From list_invitations.') }),
  output: IssuedInvitation,
  errors: ['NOT_FOUND', 'INVITATION_CLOSED', 'ALREADY_MEMBER'],
  example: { invitationId: INVITATION_EX, commandKey: '8b2d4f6a-1c3e-4a5b-9d7f-0e2a4c6b8d1f' },
  handler: (ctx, input) => invitations.resendInvitation(ctx, input.invitationId),
});

export const revokeInvitation = defineAction({
  name: 'revoke_invitation',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'invitations',
  summary: 'Revoke an invitation; its link stops working at once.',
  description:
    'Closes a pending or expired invitation for good: opening its link shows that it cannot be used, and accept_invitation refuses it. Revoking a revoked invitation changes nothing. An accepted one answers INVITATION_CLOSED: remove the member (remove_studio_member) instead.',
  scope: 'workspace:manage',
  input: z.strictObject({ invitationId: InvitationId.describe('From list_invitations.') }),
  output: Invitation,
  errors: ['NOT_FOUND', 'INVITATION_CLOSED'],
  example: { invitationId: INVITATION_EX },
  handler: (ctx, input) => invitations.revokeInvitation(ctx, input.invitationId),
});
