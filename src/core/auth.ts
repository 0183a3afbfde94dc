import type { Store } from '../../db/store.js';
import type { Caller } from './context.js';
import { ROLE_PERMISSIONS, type Role, type StudioPermission } from './permissions.js';
import { ServiceError } from './errors.js';
import { nowIso, sha256 } from './ids.js';
import { connectionPermissions } from './oauth-scopes.js';

interface TokenRow {
  token_id: string;
  member_id: string;
  user_id: string;
  studio_id: string;
  role: string;
  expires_at: string | null;
}

const LOOKUP = `
  SELECT t.id AS token_id, m.id AS member_id, m.user_id, m.studio_id, m.role, t.expires_at
  FROM api_tokens t JOIN members m ON m.id = t.member_id
  WHERE t.token_hash = ? AND t.revoked_at IS NULL AND m.removed_at IS NULL`;

interface AccessTokenRow extends TokenRow {
  scopes: string;
  resource: string;
}

/** An access token of a live grant whose member is still in the studio. */
const ACCESS_LOOKUP = `
  SELECT a.id AS token_id, m.id AS member_id, m.user_id, m.studio_id, m.role, a.expires_at, a.scopes, g.resource
  FROM oauth_access_tokens a
  JOIN oauth_grants g ON g.id = a.grant_id
  JOIN members m ON m.id = g.member_id
  WHERE a.token_hash = ? AND g.revoked_at IS NULL AND m.removed_at IS NULL`;

/**
 * How long a token's row, once read, answers for it again without reading it (this process only). A token revoked,
 * or a member removed or given another role, by another process (`studio serve` beside this one, the CLI) stops
 * working here within this time: within a second, as promised. A change made through this process takes effect on
 * its next request (`forgetTokens`). Only live tokens are kept; an unknown one is read every time.
 */
export const TOKEN_CACHE_MS = 500;
const TOKEN_CACHE_MAX = 10_000;

interface TokenCache {
  /**
   * By the token's digest: the caller it makes (built once: nothing changes a caller), until when it is kept, and when
   * the token expires (ms; expiry applies from the moment it passes, kept or not).
   */
  rows: Map<string, { caller: Caller; until: number; expires: number }>;
  /** Bumped by every forgetting: a read that began before it is not kept (it may predate the change). */
  generation: number;
}
const tokenCaches = new WeakMap<Store, TokenCache>();

function cacheOf(store: Store): TokenCache {
  let cache = tokenCaches.get(store);
  if (!cache) tokenCaches.set(store, (cache = { rows: new Map(), generation: 0 }));
  return cache;
}

/** Forgets every token row this process keeps for the store: a write changed tokens or members. */
export function forgetTokens(store: Store): void {
  const cache = cacheOf(store);
  cache.rows.clear();
  cache.generation++;
}

/** The caller of an API token whose row this process read less than TOKEN_CACHE_MS ago, if it is still valid. */
function keptCaller(cache: TokenCache, digest: string, now: number): Caller | undefined {
  const kept = cache.rows.get(digest);
  if (!kept || kept.until <= now) return undefined;
  return kept.expires > now ? kept.caller : undefined;
}

async function lookUpToken(store: Store, digest: string): Promise<Caller | undefined> {
  const cache = cacheOf(store);
  const now = Date.now();
  const kept = keptCaller(cache, digest, now);
  if (kept) return kept;
  const generation = cache.generation;
  const row = await store.readRow<TokenRow>(LOOKUP, digest);
  if (!row) {
    cache.rows.delete(digest);
    return undefined;
  }
  const caller = apiTokenCaller(row);
  // Expiry applies from the moment it passes, kept or not: one figure judges both.
  const expires = row.expires_at ? Date.parse(row.expires_at) : Number.POSITIVE_INFINITY;
  if (generation === cache.generation) {
    if (cache.rows.size >= TOKEN_CACHE_MAX) cache.rows.clear();
    cache.rows.set(digest, { caller, until: now + TOKEN_CACHE_MS, expires });
  }
  return expires > Date.now() ? caller : undefined;
}

/** Each role's permissions, one set shared by its callers (a caller's permissions are read, never changed). */
const ROLE_SETS = new Map<Role, ReadonlySet<StudioPermission>>();
const roleSet = (role: Role) => {
  let set = ROLE_SETS.get(role);
  if (!set) ROLE_SETS.set(role, (set = new Set(ROLE_PERMISSIONS[role])));
  return set;
};

const apiTokenCaller = (row: TokenRow): Caller => ({
  userId: row.user_id,
  memberId: row.member_id,
  studioId: row.studio_id,
  role: row.role as Role,
  tokenId: row.token_id,
  via: 'api_token',
  permissions: roleSet(row.role as Role),
});

/**
 * The caller of an API token this process has just read and kept, without waiting: undefined when the token must be
 * read (or is refused), and `authenticate` then answers. A surface's hot path takes it before going async.
 */
export function keptApiCaller(store: Store, token: string | undefined): Caller | undefined {
  if (!token || token.length > 512 || token.startsWith(`${OAUTH_ACCESS_TOKEN_PREFIX}_`)) return undefined;
  return keptCaller(cacheOf(store), sha256(token), Date.now());
}

/**
 * OAuth access tokens carry their own prefix (API tokens are `studio_…`), so one lookup says which table a bearer
 * token belongs to, and secret scanners can tell them apart.
 */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'mcp_at';

/** Reads `Authorization: Bearer <token>`; anything else is treated as no token. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

export interface AuthenticateOptions {
  /**
   * The OAuth resource (RFC 8707) the request is addressed to: `<base>/mcp` on the MCP endpoint, nothing elsewhere.
   * An OAuth access token is accepted only where its audience is; API tokens are accepted everywhere.
   */
  resource?: string;
}

/**
 * Resolves a bearer token to the member it acts for: an API token, or an OAuth access token at its own resource.
 * Tokens are stored only as SHA-256 digests (they are 256-bit random, so a fast digest is enough; no password hashing
 * is needed). Expiry applies on the next request; revocation, member removal and a role change on the next request
 * through the process that made them and within TOKEN_CACHE_MS on every other.
 */
export async function authenticate(
  store: Store,
  token: string | undefined,
  opts: AuthenticateOptions = {},
): Promise<Caller> {
  if (!token) throw new ServiceError('UNAUTHENTICATED', 'No API token was sent; send "Authorization: Bearer <token>".');
  if (token.length > 512) throw new ServiceError('UNAUTHENTICATED');
  if (token.startsWith(`${OAUTH_ACCESS_TOKEN_PREFIX}_`)) return authenticateAccessToken(store, token, opts.resource);
  const caller = await lookUpToken(store, sha256(token));
  if (!caller) {
    throw new ServiceError(
      'UNAUTHENTICATED',
      'The API token is unknown, revoked or expired; create a new one with `studio token create`.',
    );
  }
  return caller;
}

/**
 * An OAuth access token acts for its grant's member in that member's studio only, with the scopes allowed at consent
 * as far as the member's role allows them now (oauth-scopes.ts). Its audience must be the resource the request is for
 * (RFC 8707): a token is never accepted by another resource, here or elsewhere.
 */
async function authenticateAccessToken(store: Store, token: string, resource: string | undefined): Promise<Caller> {
  const row = await store.readRow<AccessTokenRow>(ACCESS_LOOKUP, sha256(token));
  if (!row || row.expires_at! <= nowIso()) {
    throw new ServiceError(
      'UNAUTHENTICATED',
      'The OAuth access token is unknown, expired or revoked, or its member left the studio; the MCP client refreshes it or connects again.',
    );
  }
  if (resource === undefined) {
    throw new ServiceError(
      'UNAUTHENTICATED',
      `This OAuth access token works only at ${row.resource}; the REST and procedure APIs take API tokens (studio_…).`,
    );
  }
  if (row.resource !== resource) {
    throw new ServiceError(
      'UNAUTHENTICATED',
      `This OAuth access token was issued for ${row.resource}, not ${resource}; connect the MCP client again.`,
    );
  }
  const role = row.role as Role;
  return {
    userId: row.user_id,
    memberId: row.member_id,
    studioId: row.studio_id,
    role,
    tokenId: row.token_id,
    via: 'oauth',
    permissions: connectionPermissions(row.scopes.split(' '), role),
  };
}
