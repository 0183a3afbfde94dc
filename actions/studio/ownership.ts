import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Id } from '../../src/core/values.js';
import { Studio } from './shapes.js';
import { transferOwnership, transferQuestion } from '../../src/domain/studio/ownership.js';
import { CONFIRMED } from '../shared/confirmation.js';
import { MemberId } from '../shared/refs.js';

const Membership = z.strictObject({ memberId: Id, role: z.enum(['owner', 'admin']) });

export const transferStudioOwnership = defineAction({
  name: 'transfer_studio_ownership',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'studio',
  summary: 'Hand the studio to another member; you become an admin.',
  description: `Makes an active member the owner; you (the owner) become an admin, so only the new owner can hand it back. A studio always has exactly one owner. ${CONFIRMED}`,
  scope: 'studio:own',
  input: z.strictObject({
    memberId: MemberId.describe('The active member who becomes the owner (list_studio_members).'),
  }),
  output: z.strictObject({ studio: Studio, owner: Membership, previousOwner: Membership }),
  errors: ['NOT_FOUND'],
  confirmation: { ask: transferQuestion },
  example: { memberId: '0000000000000000000000000b', confirm: true },
  handler: (ctx, input) => transferOwnership(ctx, input),
});
