import {
  GRANT_LEVELS,
  ROLES,
  ROLE_DESCRIPTIONS,
  ROLE_PERMISSIONS,
  STUDIO_PERMISSIONS,
  type GrantLevel,
  type StudioPermission,
} from '../../core/permissions.js';

/** One sentence per member of the closed StudioPermission union; typed so that a new permission cannot go undescribed. */
export const PERMISSION_DESCRIPTIONS: Record<StudioPermission, string> = {
  'projects:read': 'Read projects, sections and schedule lines of the projects you can reach.',
  'projects:write': 'Create and change projects, sections, lines, photographs and imports.',
  'pricing:read': 'See trade prices, markup and margin; without it they are absent from every response.',
  'pricing:write': 'Set trade prices and markup, on lines, projects and the studio defaults.',
  'documents:read': 'Read the client document and generated documents.',
  'documents:write': 'Change client document settings, mint, generate and deliver documents.',
  'shares:manage': 'Issue, reissue and revoke shared links to client documents and estimates.',
  'procurement:read': 'Read estimates, purchase orders, enquiries and charges.',
  'procurement:write': 'Create and change estimates, purchase orders, enquiries and charges.',
  'accounting:manage': 'Connect the studio to an accounting system and push invoices to it.',
  'reference:read': 'Read studio reference data: suppliers, units, codes, clients, libraries and templates.',
  'reference:write': 'Create and change studio reference data.',
  'audit:read': 'Read the audit feed of changes.',
  'workspace:manage': 'Administer the studio: members, invitations, settings, project grants; reach every project.',
  'studio:own': 'Transfer ownership of the studio. Held by its one owner only.',
  self: 'Act on your own account: profile, API tokens, interface state, studios you belong to.',
};

const GRANT_DESCRIPTIONS: Record<GrantLevel, string> = {
  view: 'Read the project (members without workspace:manage reach only granted projects).',
  edit: "Read and change the project; a project's creator is granted edit.",
};

/** The permission vocabulary and the roles built from it, straight from the one definition in core/permissions.ts. */
export function permissionCatalog() {
  return {
    permissions: STUDIO_PERMISSIONS.map((name) => ({ name, description: PERMISSION_DESCRIPTIONS[name] })),
    roles: ROLES.map((role) => ({
      role,
      description: ROLE_DESCRIPTIONS[role],
      permissions: [...ROLE_PERMISSIONS[role]],
    })),
    grantLevels: GRANT_LEVELS.map((level) => ({ level, description: GRANT_DESCRIPTIONS[level] })),
  };
}
