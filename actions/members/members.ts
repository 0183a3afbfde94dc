import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as members from '../../src/domain/members/members.js';
import { MemberId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { Member, MEMBER_EX } from './records.js';

export const listStudioMembers = defineAction({
  name: 'list_studio_members',
  kind: 'procedure',
  effect: 'query',
  domain: 'members',
  summary: "List the studio's members with their roles, by name.",
  description:
    'The people of the studio: name, email, role, since when, and which one is you. Active members by default (state: removed lists those who left or were removed, any lists both). Filter by role or by a text query on name and email; sort by name (default), email or memberSince ("-" prefix for descending). Use a member\'s id with update_member_role, remove_studio_member, grant_project_access or transfer_studio_ownership. Pending invitations are listed by list_invitations.',
  scope: 'workspace:manage',
  input: members.MEMBER_LISTING.input,
  output: page(Member),
  errors: [],
  example: { role: 'designer' },
  handler: (ctx, input) => members.listMembers(ctx, input),
});

export const getStudioMember = defineAction({
  name: 'get_studio_member',
  kind: 'procedure',
  effect: 'query',
  domain: 'members',
  summary: 'Read one member of the studio: name, email, role and state.',
  description:
    'One membership of your studio, active or removed (a removed one keeps its record, with removedAt). A member of another studio answers NOT_FOUND.',
  scope: 'workspace:manage',
  input: z.strictObject({ memberId: MemberId.describe('From list_studio_members.') }),
  output: Member,
  errors: ['NOT_FOUND'],
  example: { memberId: MEMBER_EX },
  handler: (ctx, input) => members.getMember(ctx, input.memberId),
});
