import type { Generated } from 'kysely';
import type { Store } from '../../../db/store.js';
import { newToken, sha256 } from '../../core/ids.js';
import type { StudioPermission } from '../../core/permissions.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { InvalidRequestError } from './errors.js';

/** An authorization code, by its digest: single use (`used_at`), ten minutes, bound to its PKCE challenge. */
export interface OAuthCodesTable {
  code_hash: string;
  /** The consent form that made it: one code per approval. */
  consent_id: string;
  client_id: string;
  member_id: string;
  redirect_uri: string;
  /** 1 when the authorization request named redirect_uri (the token request must then send it), 0 when it was left out. */
  redirect_uri_named: Generated<number>;
  code_challenge: string;
  scopes: string;
  resource: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The grant its exchange created, so a second exchange can revoke it. */
  grant_id: string | null;
}
declare module '../../../db/schema.js' {
  interface Database {
    oauth_codes: OAuthCodesTable;
  }
}

/** An authorization code lives ten minutes and is spent by its first exchange (OAuth 2.1 §4.1.2). */
export const CODE_TTL_MS = 10 * 60_000;

export interface Approval {
  request: AuthorizationRequest;
  memberId: string;
  /** What the person ticked on the consent page, of what was asked. */
  scopes: readonly StudioPermission[];
  /** The consent form's own id: one approval makes one code, so a resubmitted form makes none. */
  consentId: string;
}

/**
 * The person approved: a code bound to the client, its redirect URI, its PKCE challenge, the member (so the studio),
 * the scopes allowed and the resource. 256 random bits, kept only as a digest.
 */
export async function issueCode(store: Store, a: Approval): Promise<string> {
  const code = newToken('mcp_code');
  const now = new Date();
  const made = await store.write(async (tx) => {
    const again = await tx
      .selectFrom('oauth_codes')
      .select('consent_id')
      .where('consent_id', '=', a.consentId)
      .executeTakeFirst();
    if (again) return false;
    await tx
      .insertInto('oauth_codes')
      .values({
        code_hash: sha256(code),
        consent_id: a.consentId,
        client_id: a.request.clientId,
        member_id: a.memberId,
        redirect_uri: a.request.redirectUri,
        // A consent form sealed before the field existed named it unless told otherwise.
        redirect_uri_named: a.request.redirectUriNamed === false ? 0 : 1,
        code_challenge: a.request.codeChallenge,
        scopes: a.scopes.join(' '),
        resource: a.request.resource,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
        used_at: null,
        grant_id: null,
      })
      .execute();
    return true;
  });
  if (!made)
    throw new InvalidRequestError('This approval was already given once; start the connection again from the client.');
  return code;
}
