import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db, GroupMemo, Store } from '../../../db/store.js';
import type { Role } from '../../../db/vocabulary.js';
import { OAUTH_ACCESS_TOKEN_PREFIX } from '../../core/auth.js';
import { newId, newToken, sha256 } from '../../core/ids.js';
import { connectionPermissions, parseScope, scopeString } from '../../core/oauth-scopes.js';
import {
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  type OAuthError,
} from './errors.js';
import { createGrant, revokeGrant } from './grants.js';
import { mcpResource, namesMcpResource } from './urls.js';

export interface OAuthAccessTokenRow {
  id: string;
  grant_id: string;
  token_hash: string;
  /** This token's scopes: the grant's, or fewer when a refresh asked for fewer. */
  scopes: string;
  created_at: string;
  expires_at: string;
}

/** A refresh token, by its digest: spent by its one use (rotation); presented again, it revokes its grant. */
export interface OAuthRefreshTokenRow {
  id: string;
  grant_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
declare module '../../../db/schema.js' {
  interface Database {
    oauth_access_tokens: OAuthAccessTokenRow;
    oauth_refresh_tokens: OAuthRefreshTokenRow;
  }
}

/** Access tokens are short-lived (the MCP client refreshes them); refresh tokens rotate on every use. */
export const ACCESS_TTL_SECONDS = 3600;
export const REFRESH_TTL_MS = 30 * 24 * 3600_000;
export const REFRESH_TOKEN_PREFIX = 'mcp_rt';

/** The token response (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  /** What the connection holds: the scopes allowed, as far as the member's role gives them. */
  scope: string;
}

/** A write's answer: the tokens, or a refusal decided inside it (its other effects, a spent code, still commit). */
type Outcome = { ok: true; tokens: TokenResponse } | { ok: false; error: OAuthError };
const refuse = (error: OAuthError): Outcome => ({ ok: false, error });

async function settle(store: Store, fn: (tx: Db, memo: GroupMemo) => Promise<Outcome>): Promise<TokenResponse> {
  const outcome = await store.write((tx, _q, memo) => fn(tx, memo));
  if (!outcome.ok) throw outcome.error;
  return outcome.tokens;
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA-256(verifier)) equals the challenge, compared in constant time. */
function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

interface ActiveMember {
  studio_id: string;
  role: Role;
}

const activeMember = (tx: Db, memberId: string): Promise<ActiveMember | undefined> =>
  tx
    .selectFrom('members')
    .select(['studio_id', 'role'])
    .where('id', '=', memberId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();

/** A fresh access token and refresh token for a grant; the access token may carry fewer scopes than the grant. */
async function mint(tx: Db, grantId: string, scopes: readonly string[], role: Role, now: Date): Promise<TokenResponse> {
  const access = newToken(OAUTH_ACCESS_TOKEN_PREFIX);
  const refresh = newToken(REFRESH_TOKEN_PREFIX);
  const at = now.toISOString();
  await tx
    .insertInto('oauth_access_tokens')
    .values({
      id: newId(),
      grant_id: grantId,
      token_hash: sha256(access),
      scopes: scopes.join(' '),
      created_at: at,
      expires_at: new Date(now.getTime() + ACCESS_TTL_SECONDS * 1000).toISOString(),
    })
    .execute();
  await tx
    .insertInto('oauth_refresh_tokens')
    .values({
      id: newId(),
      grant_id: grantId,
      token_hash: sha256(refresh),
      created_at: at,
      expires_at: new Date(now.getTime() + REFRESH_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TTL_SECONDS,
    refresh_token: refresh,
    scope: scopeString(connectionPermissions(scopes, role)),
  };
}

export interface CodeExchange {
  clientId: string;
  code: string;
  /** Checked only once the code is found: an attempt without it spends the code all the same. */
  verifier?: string;
  redirectUri?: string;
  resource?: string;
}

/**
 * `grant_type=authorization_code`: the code is spent by this attempt whatever its outcome (one try per code, so a
 * stolen code cannot be tried against verifiers), and a code presented a second time revokes the connection its first
 * exchange made (OAuth 2.1 §4.1.3).
 */
export function exchangeCode(store: Store, config: Config, x: CodeExchange): Promise<TokenResponse> {
  const unknown = () => refuse(new InvalidGrantError('The authorization code is unknown, expired or already used.'));
  return settle(store, async (tx, memo) => {
    const code = await tx
      .selectFrom('oauth_codes')
      .selectAll()
      .where('code_hash', '=', sha256(x.code))
      .executeTakeFirst();
    if (!code || code.client_id !== x.clientId) return unknown();
    const now = new Date();
    if (code.used_at) {
      if (code.grant_id) await revokeGrant(tx, memo, code.grant_id, 'code_reused', now.toISOString());
      return unknown();
    }
    await tx
      .updateTable('oauth_codes')
      .set({ used_at: now.toISOString() })
      .where('code_hash', '=', code.code_hash)
      .execute();
    if (code.expires_at <= now.toISOString()) return unknown();
    if (x.verifier === undefined)
      return refuse(
        new InvalidRequestError(
          'code_verifier is required; this code is now spent, so start the connection again from the client.',
        ),
      );
    if (x.redirectUri === undefined && code.redirect_uri_named)
      return refuse(
        new InvalidGrantError(
          'redirect_uri is required: the authorization request named one, so send the same one (RFC 6749 §4.1.3); this code is now spent.',
        ),
      );
    if (x.redirectUri !== undefined && x.redirectUri !== code.redirect_uri)
      return refuse(new InvalidGrantError('redirect_uri is not the one the authorization request named.'));
    if (!namesMcpResource(config, code.resource))
      return refuse(
        new InvalidGrantError(
          `This code was made for ${code.resource}, and this server now answers at ${mcpResource(config)}; start the connection again.`,
        ),
      );
    if (x.resource !== undefined && (!namesMcpResource(config, x.resource) || x.resource !== code.resource))
      return refuse(new InvalidTargetError(`This code is for ${code.resource}; ask for that resource or none.`));
    if (!verifierMatches(x.verifier, code.code_challenge))
      return refuse(new InvalidGrantError('code_verifier does not match the code_challenge of the authorization.'));
    const member = await activeMember(tx, code.member_id);
    if (!member) return refuse(new InvalidGrantError('The member who approved this connection left the studio.'));
    const scopes = code.scopes ? code.scopes.split(' ') : [];
    const client = await tx
      .selectFrom('oauth_clients')
      .select('name')
      .where('id', '=', code.client_id)
      .executeTakeFirst();
    const grantId = await createGrant(
      tx,
      memo,
      {
        clientId: code.client_id,
        clientName: client?.name ?? null,
        memberId: code.member_id,
        studioId: member.studio_id,
        scopes,
        effective: scopeString(connectionPermissions(scopes, member.role)),
        resource: code.resource,
      },
      now.toISOString(),
    );
    await tx.updateTable('oauth_codes').set({ grant_id: grantId }).where('code_hash', '=', code.code_hash).execute();
    return { ok: true, tokens: await mint(tx, grantId, scopes, member.role, now) };
  });
}

export interface RefreshExchange {
  clientId: string;
  refreshToken: string;
  scope?: string;
  resource?: string;
}

/**
 * `grant_type=refresh_token`: rotation (OAuth 2.1 §4.3.1, required for public clients): the refresh token is spent and
 * a new one issued with the new access token. A spent refresh token presented again means two parties hold it, so the
 * whole connection (every token of the grant) is revoked and the client must ask the person again.
 */
export function refreshTokens(store: Store, config: Config, x: RefreshExchange): Promise<TokenResponse> {
  const unknown = () =>
    refuse(new InvalidGrantError('The refresh token is unknown, expired or revoked; connect again.'));
  return settle(store, async (tx, memo) => {
    const row = await tx
      .selectFrom('oauth_refresh_tokens as r')
      .innerJoin('oauth_grants as g', 'g.id', 'r.grant_id')
      .select(['r.id', 'r.grant_id', 'r.expires_at', 'r.used_at', 'g.client_id', 'g.member_id', 'g.scopes'])
      .select(['g.resource', 'g.revoked_at'])
      .where('r.token_hash', '=', sha256(x.refreshToken))
      .executeTakeFirst();
    if (!row || row.client_id !== x.clientId || row.revoked_at) return unknown();
    const now = new Date();
    const at = now.toISOString();
    if (row.used_at) {
      await revokeGrant(tx, memo, row.grant_id, 'refresh_token_reused', at);
      return refuse(
        new InvalidGrantError(
          'This refresh token was already used, so the connection was ended to be safe; connect the client again.',
        ),
      );
    }
    if (row.expires_at <= at) return unknown();
    if (x.resource !== undefined && (!namesMcpResource(config, x.resource) || x.resource !== row.resource))
      return refuse(new InvalidTargetError(`This connection's tokens are for ${row.resource} only.`));
    // The server moved: an access token for the old address would be refused at every /mcp request.
    if (!namesMcpResource(config, row.resource))
      return refuse(
        new InvalidGrantError(
          `This connection was made for ${row.resource}, and this server now answers at ${mcpResource(config)}; connect the client again.`,
        ),
      );
    const granted = row.scopes ? row.scopes.split(' ') : [];
    let scopes = granted;
    if (x.scope !== undefined) {
      const asked = parseScope(x.scope);
      const beyond = [...asked.unknown, ...asked.scopes.filter((s) => !granted.includes(s))];
      if (beyond.length)
        return refuse(
          new InvalidScopeError(
            `A refresh may ask only for scopes the person allowed; ${beyond.slice(0, 5).join(', ').slice(0, 200)} ${beyond.length === 1 ? 'was' : 'were'} not.`,
          ),
        );
      scopes = asked.scopes;
    }
    const member = await activeMember(tx, row.member_id);
    if (!member) return unknown();
    await tx.updateTable('oauth_refresh_tokens').set({ used_at: at }).where('id', '=', row.id).execute();
    // Tokens of this grant that can no longer work are of no use to anyone; a spent refresh token is kept until it
    // would have expired, so its reuse is still recognised.
    await tx
      .deleteFrom('oauth_access_tokens')
      .where('grant_id', '=', row.grant_id)
      .where('expires_at', '<=', at)
      .execute();
    await tx
      .deleteFrom('oauth_refresh_tokens')
      .where('grant_id', '=', row.grant_id)
      .where('expires_at', '<=', at)
      .execute();
    return { ok: true, tokens: await mint(tx, row.grant_id, scopes, member.role, now) };
  });
}

/**
 * Token revocation (RFC 7009) by the client that holds the token: an access or refresh token ends its whole
 * connection. A token that is unknown, already revoked or another client's changes nothing and is answered the same,
 * so the endpoint tells nobody which tokens exist.
 */
export async function revokeByToken(store: Store, clientId: string, token: string): Promise<void> {
  const table = token.startsWith(`${OAUTH_ACCESS_TOKEN_PREFIX}_`)
    ? 'oauth_access_tokens'
    : token.startsWith(`${REFRESH_TOKEN_PREFIX}_`)
      ? 'oauth_refresh_tokens'
      : undefined;
  if (!table || token.length > 512) return;
  await store.write(async (tx, queryRow, memo) => {
    const row = await queryRow<{ id: string; client_id: string }>(
      `SELECT g.id, g.client_id FROM ${table} t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = ?`,
      sha256(token),
    );
    if (row && row.client_id === clientId) await revokeGrant(tx, memo, row.id, 'revoked', new Date().toISOString());
  });
}

/** The parameters of a token request that must be present, once each (RFC 6749 §3.2). */
export function requiredParam(params: Record<string, string | string[] | undefined>, name: string): string {
  const v = params[name];
  if (Array.isArray(v)) throw new InvalidRequestError(`${name} was sent more than once; send it once.`);
  if (v === undefined || v === '') throw new InvalidRequestError(`${name} is required.`);
  return v;
}

export function optionalParam(params: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = params[name];
  if (Array.isArray(v)) throw new InvalidRequestError(`${name} was sent more than once; send it once.`);
  return v === '' ? undefined : v;
}
