import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import {
  leaveStudio as leave,
  leavingQuestion,
  removalQuestion,
  removeMember,
} from '../../src/domain/members/removal.js';
import { MemberId } from '../shared/refs.js';
import { EndedMembership, MEMBER_EX } from './records.js';
import { CONFIRMED } from '../shared/confirmation.js';

export const removeStudioMember = defineAction({
  name: 'remove_studio_member',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'members',
  summary: 'Remove a member from the studio; their access ends at once.',
  description: `Ends the membership: every API token and OAuth connection of theirs in this studio is revoked and their project grants deleted, so their next request is refused (401). Their record and everything they did stay. ${CONFIRMED} The owner cannot be removed (OWNERSHIP_TRANSFER_REQUIRED: transfer_studio_ownership first). Removing a removed member changes nothing and asks nothing. To leave yourself, use leave_studio.`,
  intents: ['remove someone from the studio', 'someone left, take their access away', 'delete a member'],
  scope: 'workspace:manage',
  input: z.strictObject({ memberId: MemberId.describe('From list_studio_members.') }),
  output: EndedMembership,
  errors: ['NOT_FOUND', 'OWNERSHIP_TRANSFER_REQUIRED'],
  confirmation: { ask: removalQuestion },
  example: { memberId: MEMBER_EX, confirm: true },
  handler: (ctx, input) => removeMember(ctx, input),
});

export const leaveStudio = defineAction({
  name: 'leave_studio',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'members',
  summary: 'Leave this studio; your access to it ends at once.',
  description: `Ends your own membership of the studio this token acts in: every API token and OAuth connection of yours here is revoked (this one too: its next request is refused 401) and your project grants are deleted. Other studios you belong to are not affected (list_my_studios). ${CONFIRMED} The owner cannot leave (OWNERSHIP_TRANSFER_REQUIRED): hand the studio on with transfer_studio_ownership first.`,
  scope: 'self',
  input: z.strictObject({}),
  output: EndedMembership,
  errors: ['OWNERSHIP_TRANSFER_REQUIRED'],
  confirmation: { ask: (ctx) => leavingQuestion(ctx) },
  example: { confirm: true },
  handler: (ctx) => leave(ctx),
});
