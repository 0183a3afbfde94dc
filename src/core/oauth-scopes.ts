import { ROLE_PERMISSIONS, type Role, STUDIO_PERMISSIONS, type StudioPermission } from './permissions.js';

/**
 * OAuth scopes are the StudioPermission names themselves (`projects:read`, `pricing:write`, …, `self`): one
 * vocabulary, so what a person allows on the consent page is exactly what `invoke` checks. A connection holds a
 * permission when the person allowed it AND the member's role has it now (so a demotion narrows every connection at
 * the next request, and no connection ever exceeds its role). `self` (the person's own account: profile, studios,
 * API tokens) is held only by a connection that holds every other permission of the role, because an API token it
 * creates carries the whole role: a narrower connection must not be able to mint a wider credential.
 */
export const OAUTH_SCOPES: readonly StudioPermission[] = STUDIO_PERMISSIONS;

const KNOWN = new Set<string>(OAUTH_SCOPES);
/**
 * Scopes a client may ask for that grant nothing here and are dropped rather than refused: `offline_access` (OpenID's
 * way of asking for a refresh token; this server issues one with every connection anyway).
 */
const IGNORED = new Set(['offline_access']);

export const isOAuthScope = (s: string): s is StudioPermission => KNOWN.has(s);

/** A `scope` parameter (space-separated) read: the known scopes in catalog order, and any it does not know. */
export function parseScope(scope: string | undefined): { scopes: StudioPermission[]; unknown: string[] } {
  const asked = new Set((scope ?? '').split(' ').filter(Boolean));
  return {
    scopes: OAUTH_SCOPES.filter((s) => asked.has(s)),
    unknown: [...asked].filter((s) => !KNOWN.has(s) && !IGNORED.has(s)),
  };
}

/** The permissions a connection holds now: allowed ∩ role, and `self` only with everything else the role has. */
export function connectionPermissions(allowed: readonly string[], role: Role): Set<StudioPermission> {
  const roleHas = ROLE_PERMISSIONS[role];
  const granted = new Set(roleHas.filter((p) => p !== 'self' && allowed.includes(p)));
  if (allowed.includes('self') && roleHas.every((p) => p === 'self' || granted.has(p))) granted.add('self');
  return granted;
}

/** Permissions as a `scope` string, in catalog order. */
export const scopeString = (permissions: Iterable<string>): string => {
  const held = new Set(permissions);
  return OAUTH_SCOPES.filter((s) => held.has(s)).join(' ');
};
