import { z } from 'zod';
import { linkServing } from '../shared/link-serving.js';
import { named } from '../../src/core/values.js';
import { INVITATION_RECORD } from '../../src/domain/invitations/record.js';

export { InvitationEmail } from '../../src/domain/invitations/record.js';

/** An invitation as the API answers it (declared once, in src/domain/invitations/record.ts). */
export const Invitation = INVITATION_RECORD.output;

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
