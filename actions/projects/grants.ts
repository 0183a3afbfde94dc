import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page, Timestamp } from '../../src/core/values.js';
import * as grants from '../../src/domain/projects/grants.js';
import { GrantLevel, PROJECT_GRANT_RECORD } from '../../src/domain/projects/grant-record.js';
import { EXAMPLE } from './shapes.js';
import { MemberId, ProjectId } from '../shared/refs.js';

/** A grant as the API answers it (declared once, in src/domain/projects/grant-record.ts). */
const ProjectGrant = PROJECT_GRANT_RECORD.output;

const inGrant = { projectId: ProjectId, memberId: MemberId.describe('The studio member.') };

export const listProjectGrants = defineAction({
  name: 'list_project_grants',
  kind: 'procedure',
  effect: 'query',
  domain: 'projects',
  summary: 'List who has been granted access to a project.',
  description:
    "The project's grants to current members, with each member's name, role and level. Members holding workspace:manage (owners, admins) reach every project without a grant. Needs workspace:manage.",
  intents: ['who can see this project', 'who has access to the job', "list a project's collaborators"],
  scope: 'workspace:manage',
  input: grants.GRANT_LISTING.input,
  output: page(ProjectGrant),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => grants.listGrants(ctx, input),
});

export const grantProjectAccess = defineAction({
  name: 'grant_project_access',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'projects',
  summary: 'Give a member view or edit access to a project.',
  description:
    'Grants a studio member access to the project: view (read only) or edit. A member who already holds a grant is refused with GRANT_EXISTS; change the level with update_project_grant. Needs workspace:manage.',
  intents: ['give someone access to a project', 'let a contractor see this job', 'share a project with a colleague'],
  scope: 'workspace:manage',
  keyed: true,
  input: z.strictObject({ ...inGrant, level: GrantLevel }),
  output: ProjectGrant,
  errors: ['NOT_FOUND', 'GRANT_EXISTS'],
  example: {
    projectId: EXAMPLE.projectId,
    memberId: EXAMPLE.memberId,
    level: 'view',
    commandKey: '6b1f3c2d-8e4a-4f7b-9c0d-2a5e7f9b1c3d',
  },
  handler: (ctx, input) => grants.grantAccess(ctx, input.projectId, input.memberId, input.level),
});

export const updateProjectGrant = defineAction({
  name: 'update_project_grant',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'projects',
  summary: "Change a member's access level on a project.",
  description:
    "Sets an existing grant's level to view or edit (setting the level it already has changes nothing). A member without a grant is NOT_FOUND: use grant_project_access. Needs workspace:manage.",
  intents: [
    'downgrade someone to view only on a project',
    'let a contractor edit the project',
    "change someone's access to a project",
  ],
  scope: 'workspace:manage',
  input: z.strictObject({ ...inGrant, level: GrantLevel }),
  output: ProjectGrant,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, memberId: EXAMPLE.memberId, level: 'edit' },
  handler: (ctx, input) => grants.updateGrant(ctx, input.projectId, input.memberId, input.level),
});

export const revokeProjectAccess = defineAction({
  name: 'revoke_project_access',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'projects',
  summary: "Remove a member's access to a project.",
  description:
    'Removes the grant; the member no longer reaches the project (unless their role manages the workspace). The audit feed keeps the record. A member without a grant is NOT_FOUND. Needs workspace:manage.',
  scope: 'workspace:manage',
  input: z.strictObject(inGrant),
  output: ProjectGrant.extend({ revokedAt: Timestamp }),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, memberId: EXAMPLE.memberId },
  handler: (ctx, input) => grants.revokeGrant(ctx, input.projectId, input.memberId),
});
