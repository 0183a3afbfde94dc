import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { acceptInvitation as accept } from '../../src/domain/invitations/accept.js';
import { ApiToken, TokenSecret } from '../account/shapes.js';
import { Member } from '../members/records.js';
import { Id } from '../../src/core/values.js';

export const acceptInvitation = defineAction({
  name: 'accept_invitation',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'invitations',
  summary: 'Join a studio with an invitation sent to your email address.',
  description:
    "For someone who already has an account (an API token in another studio, or in this one after leaving it): joins the invitation's studio with the invited role. token is the part of the invitation link after /invitations/. The invitation must be for your own email address (get_current_user shows it). Answers your new membership and a new API token acting in the studio joined, whose secret (tokenSecret) is shown once: your current token keeps acting in its own studio. A used, revoked, replaced or expired invitation is refused with FORBIDDEN, one answer for all; if you are already a member, ALREADY_MEMBER. People without an account open the link in a browser instead. Send a fresh commandKey: a retry with it answers the same membership without the secret.",
  scope: 'self',
  keyed: true,
  shownOnce: ['tokenSecret'],
  input: z.strictObject({
    token: z
      .string()
      .min(1)
      .max(1024)
      .describe('The invitation token: the end of the link, invite_…, exactly as received.'),
  }),
  output: z.strictObject({
    studio: z.strictObject({ id: Id, name: z.string() }).describe('The studio joined.'),
    member: Member.describe('Your membership there.'),
    token: ApiToken.describe('A token acting as you in the studio joined.'),
    tokenSecret: TokenSecret,
  }),
  errors: ['ALREADY_MEMBER'],
  example: {
    token: 'invite_3q2-7wEXAMPLEtokenEXAMPLEtokenEXAMPLEtok',
    commandKey: '1e3a5c7d-9f2b-4d6e-8a0c-2b4d6f8a0c1e',
  },
  handler: (ctx, input) => accept(ctx, input.token),
});
