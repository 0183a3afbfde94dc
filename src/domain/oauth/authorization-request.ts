import type { Config } from '../../config.js';
import type { Store } from '../../../db/store.js';
import { OAUTH_SCOPES, parseScope } from '../../core/oauth-scopes.js';
import type { StudioPermission } from '../../core/permissions.js';
import { findClient, type KnownClient } from './clients.js';
import {
  InvalidClientError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  OAuthError,
  UnsupportedResponseTypeError,
} from './errors.js';
import { redirectUriMatches } from './redirect-uris.js';
import { issuer, mcpResource, namesMcpResource } from './urls.js';

/** An authorization request that passed every check: what the consent page shows and a code will be bound to. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  /** Whether the request named redirect_uri: the token request must then send the same one (RFC 6749 §4.1.3). */
  redirectUriNamed: boolean;
  /** BASE64URL(SHA-256(code_verifier)), 43 characters (S256 is the only method accepted). */
  codeChallenge: string;
  state?: string;
  /** The scopes asked for (all of them when the client asked for none), in catalog order. */
  scopes: StudioPermission[];
  /** The audience of the tokens: always this server's MCP endpoint. */
  resource: string;
}

/** Query parameters as fastify parses them: a repeated parameter arrives as an array. */
export type Params = Record<string, string | string[] | undefined>;

export type Checked =
  | { ok: true; request: AuthorizationRequest; client: KnownClient }
  /** Before the client and its redirect URI are known good: told to the person, never redirected (RFC 6749 §4.1.2.1). */
  | { ok: false; error: OAuthError }
  /** After: sent back to the client at its redirect URI, with its state. */
  | { ok: false; error: OAuthError; redirectUri: string; state?: string };

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE = 1024;

/** One value of a parameter; a parameter sent twice is malformed (RFC 6749 §3.1). */
function single(params: Params, name: string): string | undefined {
  const v = params[name];
  if (Array.isArray(v)) throw new InvalidRequestError(`${name} was sent more than once; send it once.`);
  return v;
}

/**
 * Checks an authorization request in RFC 6749's two phases: first the client and its redirect URI (a failure there
 * is told to the person: a code must never go to an address the client did not register), then everything else (a
 * failure there goes back to the client at that address, with its `state`).
 */
export async function checkAuthorizationRequest(store: Store, config: Config, params: Params): Promise<Checked> {
  let client: KnownClient | undefined;
  let redirectUri: string;
  let state: string | undefined;
  try {
    const clientId = single(params, 'client_id');
    if (!clientId) throw new InvalidRequestError('client_id is required: register the client at /register first.');
    client = await findClient(store, clientId);
    if (!client) throw new InvalidClientError('No client is registered with this client_id; register it at /register.');
    const asked = single(params, 'redirect_uri');
    if (asked !== undefined) {
      if (!client.redirectUris.some((registered) => redirectUriMatches(asked, registered)))
        throw new InvalidRequestError(
          'redirect_uri is not one this client registered; codes are sent only to registered addresses.',
        );
      redirectUri = asked;
    } else if (client.redirectUris.length === 1) {
      redirectUri = client.redirectUris[0]!;
    } else {
      throw new InvalidRequestError('redirect_uri is required: this client registered more than one.');
    }
    state = single(params, 'state');
    if (state !== undefined && (state.length > MAX_STATE || /\p{Cc}/u.test(state)))
      throw new InvalidRequestError(`state must be at most ${MAX_STATE} characters, without control characters.`);
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    return { ok: false, error: err };
  }
  try {
    const responseType = single(params, 'response_type');
    if (!responseType) throw new InvalidRequestError('response_type is required; send response_type=code.');
    if (responseType !== 'code')
      throw new UnsupportedResponseTypeError('Only the authorization code flow is offered: send response_type=code.');
    const challenge = single(params, 'code_challenge');
    const method = single(params, 'code_challenge_method');
    if (!challenge)
      throw new InvalidRequestError('code_challenge is required: this server needs PKCE with S256 for every client.');
    if (method !== 'S256')
      throw new InvalidRequestError(
        `code_challenge_method must be S256${method ? `, not ${method.slice(0, 20)}` : ' (without it the method would be plain)'}; plain is not accepted.`,
      );
    if (!CHALLENGE.test(challenge))
      throw new InvalidRequestError('code_challenge must be 43 base64url characters: the SHA-256 of the verifier.');
    const resource = params.resource;
    if (Array.isArray(resource))
      throw new InvalidTargetError(`This server issues tokens for one resource only: ${mcpResource(config)}.`);
    if (resource !== undefined && !namesMcpResource(config, resource))
      throw new InvalidTargetError(
        `This server issues tokens only for its MCP endpoint, ${mcpResource(config)}; ask for that resource.`,
      );
    const { scopes, unknown } = parseScope(single(params, 'scope'));
    if (unknown.length)
      throw new InvalidScopeError(
        `Unknown scope ${unknown.slice(0, 5).join(', ').slice(0, 200)}; scopes are permission names such as projects:read (see scopes_supported).`,
      );
    return {
      ok: true,
      client,
      request: {
        clientId: client.id,
        redirectUri,
        redirectUriNamed: single(params, 'redirect_uri') !== undefined,
        codeChallenge: challenge,
        ...(state !== undefined && { state }),
        scopes: scopes.length ? scopes : [...OAUTH_SCOPES],
        resource: mcpResource(config),
      },
    };
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    return { ok: false, error: err, redirectUri, ...(state !== undefined && { state }) };
  }
}

/**
 * The address an authorization response goes to: the client's redirect URI (its own query kept) with the response's
 * parameters, `state` echoed, and `iss` (RFC 9207), which tells the client which server answered.
 */
export function redirectWith(config: Config, redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set('iss', issuer(config));
  return url.href;
}
