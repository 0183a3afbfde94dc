import type { Caller } from './context.js';
import { ROLE_PERMISSIONS, type StudioPermission } from './permissions.js';

/**
 * Why a caller lacks a permission, in words that say what to do: the role lacks it (ask an admin), or the role has it
 * but this OAuth connection was not allowed it at consent (connect again and allow it).
 */
export function missingPermission(caller: Caller, permission: StudioPermission, doing: string): string {
  if (caller.via === 'oauth' && ROLE_PERMISSIONS[caller.role].includes(permission)) {
    return permission === 'self'
      ? `${doing} needs the self permission, which an OAuth connection holds only when it was allowed every permission of your role (${caller.role}); connect the MCP client again and allow them all.`
      : `${doing} needs the ${permission} permission, which this OAuth connection was not allowed; connect the MCP client again and allow it.`;
  }
  return `${doing} needs the ${permission} permission, which your role (${caller.role}) does not have.`;
}
