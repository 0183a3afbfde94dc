import { z } from 'zod';
import { linkServing } from '../shared/link-serving.js';
import { INVITATION_DELIVERIES, INVITATION_EMAIL_STATUSES } from '../../db/vocabulary.js';
import { AssignableRole } from '../members/records.js';
import { Id, named, Timestamp } from '../../src/core/values.js';

export const InvitationEmail = z
  .email('An email address looks like sam@example.com.')
  .max(254)
  .describe('The address invited, e.g. sam@example.com (kept in lower case).');

export const InvitationState = z
  .enum(['pending', 'accepted', 'revoked', 'expired'])
  .describe('pending: the link works; accepted and revoked are final; expired: resend_invitation gives a new link.');
named(InvitationState, 'InvitationState');

export const Invitation = z
  .strictObject({
    id: Id,
    email: z.string(),
    role: AssignableRole,
    state: InvitationState,
    invitedBy: z.strictObject({ memberId: Id, name: z.string() }).describe('The member who invited.'),
    createdAt: Timestamp,
    issuedAt: Timestamp.describe('When the current link was made: creation, or the last resend.'),
    expiresAt: Timestamp.describe('When the current link stops working.'),
    tokenHint: z
      .string()
      .nullable()
      .describe('The last 4 characters of the current link, to recognise it; null while its email is being made.'),
    delivery: z
      .enum(INVITATION_DELIVERIES)
      .describe('email: this server emails the link; link: it was shown once to the member who invited, to pass on.'),
    emailStatus: z
      .enum(INVITATION_EMAIL_STATUSES)
      .nullable()
      .describe('For delivery email: sending, sent (the mail server took it) or failed (see emailError); else null.'),
    emailError: z.string().nullable().describe('What the mail server answered when it refused the email.'),
    emailedAt: Timestamp.nullable(),
    acceptedAt: Timestamp.nullable(),
    acceptedMemberId: Id.nullable().describe('The membership accepting made (list_studio_members).'),
    revokedAt: Timestamp.nullable(),
  })
  .describe('An invitation to join the studio with a role: a single-use link for one email address, which expires.');
named(Invitation, 'Invitation');

export const IssuedInvitation = Invitation.extend({
  token: z
    .string()
    .nullable()
    .describe(
      'The invitation token, shown in this answer only when the link is not emailed (stored as a digest). Null when the server emails it, or when this answer replays an earlier request with the same key (resend_invitation makes a new one).',
    ),
  url: z
    .string()
    .nullable()
    .describe(
      'The link to give the person, <server>/invitations/<token>: it opens a page where a new person sets their name and password. Null exactly when token is.',
    ),
  ...linkServing,
}).describe('An invitation just made or sent again, with its link when this answer is the only place it is shown.');
named(IssuedInvitation, 'IssuedInvitation');

/** A fake id for examples: the shape the API mints, no meaning. */
export const INVITATION_EX = '0000000000000000000000000i';
