import { z } from 'zod';
import { ASSIGNABLE_ROLES, STUDIO_PERMISSIONS } from '../../src/core/permissions.js';
import { Role } from '../account/shapes.js';
import { Id, named, Timestamp } from '../../src/core/values.js';

/** A role an invitation or a role change may give: `owner` is refused with the way to make someone owner. */
export const AssignableRole = z
  .enum(ASSIGNABLE_ROLES, {
    error:
      "Choose admin, designer, assistant or viewer; the owner is made only by transfer_studio_ownership, the owner's own act.",
  })
  .describe('admin, designer, assistant or viewer (list_member_roles says what each allows).');
named(AssignableRole, 'AssignableRole');

export const Member = z
  .strictObject({
    id: Id.describe('The membership: what memberId names in every action.'),
    userId: Id.describe('The person, the same in every studio they belong to.'),
    name: z.string(),
    email: z.string(),
    role: Role,
    state: z.enum(['active', 'removed']).describe('removed: they left or were removed; their record stays.'),
    memberSince: Timestamp.describe('When they joined (or joined again).'),
    removedAt: Timestamp.nullable(),
    you: z.boolean().describe('Your own membership.'),
  })
  .describe("A studio member: a person's membership of this studio, with their role.");
named(Member, 'Member');

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
