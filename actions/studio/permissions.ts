import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { PermissionCatalog } from './shapes.js';
import { permissionCatalog } from '../../src/domain/studio/permissions-catalog.js';

export const listStudioPermissions = defineAction({
  name: 'list_studio_permissions',
  kind: 'procedure',
  effect: 'query',
  domain: 'studio',
  summary: 'List the permissions, what each allows, and the roles built from them.',
  description:
    'Returns the closed StudioPermission union with a sentence for each, the five roles with their permissions, and the project grant levels. Every action declares one of these permissions as its scope.',
  scope: 'member',
  input: z.strictObject({}),
  output: PermissionCatalog,
  errors: [],
  example: {},
  handler: () => permissionCatalog(),
});
