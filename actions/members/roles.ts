import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { listMemberRoles as listRoles, updateMemberRole as updateRole } from '../../src/domain/members/roles.js';
import { MemberId } from '../shared/refs.js';
import { AssignableRole, Member, MEMBER_EX, MemberRoleInfo } from './records.js';

export const listMemberRoles = defineAction({
  name: 'list_member_roles',
  kind: 'procedure',
  effect: 'query',
  domain: 'members',
  summary: 'List the roles a member can have, what each allows, and how many hold each.',
  description:
    'The five roles (owner, admin, designer, assistant, viewer) with a sentence each, their permissions from the StudioPermission union, whether an invitation or update_member_role may give them (owner only passes by transfer_studio_ownership), and how many active members hold each now.',
  scope: 'workspace:manage',
  input: z.strictObject({}),
  output: z.strictObject({ roles: z.array(MemberRoleInfo) }),
  errors: [],
  example: {},
  handler: (ctx) => listRoles(ctx),
});

export const updateMemberRole = defineAction({
  name: 'update_member_role',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'members',
  summary: "Change a member's role: make them an admin, designer, assistant or viewer.",
  description:
    "Gives the member another role; it applies from their next request (their tokens act with the new role). The owner's role is not changed this way (OWNERSHIP_TRANSFER_REQUIRED), and nobody is made owner this way: the owner hands the studio on with transfer_studio_ownership. The same role again changes nothing. Members without workspace:manage (designer, assistant, viewer) reach only the projects granted to them.",
  intents: ['make someone an admin', "change a colleague's role", 'give someone pricing access'],
  scope: 'workspace:manage',
  input: z.strictObject({
    memberId: MemberId.describe('An active member (list_studio_members).'),
    role: AssignableRole,
  }),
  output: Member,
  errors: ['NOT_FOUND', 'OWNERSHIP_TRANSFER_REQUIRED'],
  example: { memberId: MEMBER_EX, role: 'admin' },
  handler: (ctx, input) => updateRole(ctx, input),
});
