import { z } from 'zod';
import { INVITATION_DELIVERIES, INVITATION_EMAIL_STATUSES } from '../../../db/vocabulary.js';
import { Id, named, Timestamp } from '../../core/values.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';
import { AssignableRole } from '../members/record.js';

export const InvitationState = z
  .enum(['pending', 'accepted', 'revoked', 'expired'])
  .describe('pending: the link works; accepted and revoked are final; expired: resend_invitation gives a new link.');
named(InvitationState, 'InvitationState');

export const InvitationEmail = z
  .email('An email address looks like sam@example.com.')
  .max(254)
  .describe('The address invited, e.g. sam@example.com (kept in lower case).');

/**
 * An invitation to a studio for one email address and role: a single-use token kept as a digest (null while its email
 * is still to be sent: the sending mints it), reissued by a resend, closed by acceptance or revocation. It has no
 * version (callers never send one) and is never deleted. `state` is worked out from the clock; `invitedBy` names the
 * inviting member, read beside it.
 */
export const INVITATION_RECORD = defineRecord({
  name: 'Invitation',
  description: 'An invitation to join the studio with a role: a single-use link for one email address, which expires.',
  table: 'invitations',
  owner: 'studio',
  versioned: false,
  archivable: { key: 'revokedAt' },
  archivedMeans: 'When it was revoked (final: its link stops working); null while it was not. Never deleted.',
  fields: {
    /** Lower case. */
    email: field(z.string(), { write: 'create', required: true }),
    role: field(AssignableRole, { write: 'create', required: true }),
    inviter: field(Id, { column: 'invited_by', hidden: true }),
    /** Days from issue to expiry; a resend gives the new token the same. */
    lifetimeDays: field(z.int(), { hidden: true }),
    issuedAt: field(Timestamp.describe('When the current link was made: creation, or the last resend.')),
    expiresAt: field(Timestamp.describe('When the current link stops working.')),
    tokenHash: field(z.string().nullable(), { hidden: true }),
    tokenHint: field(
      z
        .string()
        .nullable()
        .describe('The last 4 characters of the current link, to recognise it; null while its email is being made.'),
    ),
    delivery: field(
      z
        .enum(INVITATION_DELIVERIES)
        .describe('email: this server emails the link; link: it was shown once to the member who invited, to pass on.'),
    ),
    emailStatus: field(
      z
        .enum(INVITATION_EMAIL_STATUSES)
        .nullable()
        .describe('For delivery email: sending, sent (the mail server took it) or failed (see emailError); else null.'),
    ),
    emailError: field(z.string().nullable().describe('What the mail server answered when it refused the email.')),
    /** The operation sending the current email: an earlier one, superseded by a resend, sends nothing. */
    emailOperationId: field(Id.nullable(), { hidden: true }),
    emailedAt: field(Timestamp.nullable()),
    acceptedAt: field(Timestamp.nullable()),
    acceptedMemberId: field(Id.nullable().describe('The membership accepting made (list_studio_members).')),
    revokedBy: field(Id.nullable(), { hidden: true }),
    updatedAt: field(Timestamp, { hidden: true }),
  },
  computed: {
    state: InvitationState,
    invitedBy: z.strictObject({ memberId: Id, name: z.string() }).describe('The member who invited.'),
  },
  order: [
    'id',
    'email',
    'role',
    'state',
    'invitedBy',
    'createdAt',
    'issuedAt',
    'expiresAt',
    'tokenHint',
    'delivery',
    'emailStatus',
    'emailError',
    'emailedAt',
    'acceptedAt',
    'acceptedMemberId',
    'revokedAt',
  ],
});

export type InvitationRow = TableOf<typeof INVITATION_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    invitations: InvitationRow;
  }
}
