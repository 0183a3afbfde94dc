import {
  ASSIGNABLE_ROLES,
  type AssignableRole,
  GRANT_LEVELS,
  ROLES,
  type GrantLevel,
  type Role,
} from '../../db/vocabulary.js';

/**
 * The closed StudioPermission union, the roles built from it, and project grants.
 * Scopes are declared on actions and enforced only by `invoke`; nothing else checks them.
 */
export const STUDIO_PERMISSIONS = [
  'projects:read',
  'projects:write',
  'pricing:read',
  'pricing:write',
  'documents:read',
  'documents:write',
  'shares:manage',
  'procurement:read',
  'procurement:write',
  'accounting:manage',
  'reference:read',
  'reference:write',
  'audit:read',
  'workspace:manage',
  'studio:own',
  'self',
] as const;
export type StudioPermission = (typeof STUDIO_PERMISSIONS)[number];

/**
 * What an action may require: a studio permission, `member` (any member of the studio, e.g. reading the studio's
 * name) or `capability` (anonymous, authorised by a share token in the path).
 */
export type ActionScope = StudioPermission | 'member' | 'capability';

// Roles and grant levels are stored in columns, so their lists live with the table types.
export { ASSIGNABLE_ROLES, type AssignableRole, GRANT_LEVELS, ROLES, type GrantLevel, type Role };

const ALL = STUDIO_PERMISSIONS;
const DESIGNER: readonly StudioPermission[] = [
  'projects:read',
  'projects:write',
  'pricing:read',
  'pricing:write',
  'documents:read',
  'documents:write',
  'shares:manage',
  'procurement:read',
  'procurement:write',
  'reference:read',
  'reference:write',
  'audit:read',
  'self',
];

export const ROLE_PERMISSIONS: Record<Role, readonly StudioPermission[]> = {
  owner: ALL,
  admin: ALL.filter((p) => p !== 'studio:own'),
  designer: DESIGNER,
  assistant: ['projects:read', 'projects:write', 'documents:read', 'reference:read', 'procurement:read', 'self'],
  viewer: ['projects:read', 'documents:read', 'reference:read', 'procurement:read', 'audit:read', 'self'],
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'Everything, including transferring the studio. Exactly one per studio.',
  admin: 'Everything but transferring ownership: members, invitations, settings and all projects.',
  designer: 'All project, pricing, document, share, procurement, reference and audit work on granted projects.',
  assistant: 'Edits schedules and reads documents and reference data; never sees trade prices, markup or margin.',
  viewer: 'Reads schedules, documents and reference data without pricing.',
};

/** Members holding `workspace:manage` reach every project of the studio; others only the projects granted to them. */
export const reachesAllProjects = (permissions: ReadonlySet<StudioPermission>) => permissions.has('workspace:manage');

/** A write to a project needs an `edit` grant; reads need any grant. */
export const grantAllows = (grant: GrantLevel | undefined, write: boolean) =>
  grant === 'edit' || (grant === 'view' && !write);
