import { z } from 'zod';
import { ROLES } from '../../../db/vocabulary.js';
import { ASSIGNABLE_ROLES } from '../../core/permissions.js';
import { Id, named } from '../../core/values.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';

/** A member's role, as every input and answer names it (the owner included). */
export const Role = z.enum(ROLES);

/** A role an invitation or a role change may give: `owner` is refused with the way to make someone owner. */
export const AssignableRole = z
  .enum(ASSIGNABLE_ROLES, {
    error:
      "Choose admin, designer, assistant or viewer; the owner is made only by transfer_studio_ownership, the owner's own act.",
  })
  .describe('admin, designer, assistant or viewer (list_member_roles says what each allows).');
named(AssignableRole, 'AssignableRole');

/**
 * A studio member: a person's membership of one studio, with a role. It has no version (its role changes by its own
 * act, update_member_role) and is never deleted: removal stamps removed_at, so what they did stays attributed. The
 * person's name and address are the user's, read beside it; `you` is worked out from the caller.
 */
export const MEMBER_RECORD = defineRecord({
  name: 'Member',
  description: "A studio member: a person's membership of this studio, with their role.",
  table: 'members',
  owner: 'studio',
  idMeans: 'The membership: what memberId names in every action.',
  versioned: false,
  created: { key: 'memberSince', means: 'When they joined (or joined again).' },
  archivable: { key: 'removedAt' },
  archivedMeans: 'When they left or were removed; null while they are a member. The membership is never deleted.',
  fields: {
    userId: field(Id.describe('The person, the same in every studio they belong to.'), {
      write: 'create',
      required: true,
    }),
    role: field(Role, { write: 'create', required: true }),
  },
  computed: {
    name: z.string(),
    email: z.string(),
    state: z.enum(['active', 'removed']).describe('removed: they left or were removed; their record stays.'),
    you: z.boolean().describe('Your own membership.'),
  },
  order: ['id', 'userId', 'name', 'email', 'role', 'state', 'memberSince', 'removedAt', 'you'],
});

export type MemberRow = TableOf<typeof MEMBER_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    members: MemberRow;
  }
}
