import { z } from 'zod';
import { STUDIO_PERMISSIONS } from '../../src/core/permissions.js';
import { named } from '../../src/core/values.js';
import { Role } from '../account/shapes.js';
import { MEMBER_RECORD } from '../../src/domain/members/record.js';

export { AssignableRole } from '../../src/domain/members/record.js';

/** A member as the API answers it (declared once, in src/domain/members/record.ts). */
export const Member = MEMBER_RECORD.output;

export const MemberRoleInfo = z.strictObject({
  role: Role,
  description: z.string(),
  permissions: z.array(z.enum(STUDIO_PERMISSIONS)),
  assignable: z
    .boolean()
    .describe('Whether an invitation or update_member_role may give it; owner passes only by transfer.'),
  activeMembers: z.int().min(0).describe('How many active members hold it now.'),
});

export const EndedMembership = z
  .strictObject({
    member: Member.describe('As it is now: state removed.'),
    tokensRevoked: z.int().min(0).describe('API tokens of the membership revoked by this act.'),
    grantsRemoved: z.int().min(0).describe('Project grants of the membership deleted by this act.'),
  })
  .describe('A membership ended: its tokens stop working and its grants are gone from the next request on.');
named(EndedMembership, 'EndedMembership');

/** A fake id for examples: the shape the API mints, no meaning. */
export const MEMBER_EX = '0000000000000000000000000m';
