import { z } from 'zod';
import { InvalidClientMetadataError, InvalidRedirectUriError } from './errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Store } from '../../../db/store.js';
import { newId, nowIso } from '../../core/ids.js';
import { redirectUriProblem } from './redirect-uris.js';

/**
 * Dynamic client registration (RFC 7591), for public clients only: the server issues no client secrets, so every
 * client authenticates at the token endpoint with `none` and proves itself with PKCE. The metadata is bounded (a
 * registration is an unauthenticated write), validated field by field with a sentence for each refusal, and metadata
 * this server does not understand is ignored as RFC 7591 §2 asks (keys for private_key_jwt, software statements).
 */
const MAX_REDIRECT_URIS = 10;

/** A client that registered itself (RFC 7591): public, so it has no secret. `metadata` is the registration as answered. */
export interface OAuthClientRow {
  id: string;
  name: string | null;
  /** JSON array of the exact redirect URIs registered. */
  redirect_uris: string;
  metadata: string;
  created_at: string;
}
declare module '../../../db/schema.js' {
  interface Database {
    oauth_clients: OAuthClientRow;
  }
}

/** Text a person will read on the consent page: no control characters, bounded. */
const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string.` })
    .max(max, `${field} must be at most ${max} characters.`)
    .refine((s) => !/\p{Cc}/u.test(s), `${field} may not contain control characters.`);

/** An informational web address (client_uri, logo_uri, tos_uri, policy_uri): https only, bounded. */
const webAddress = (field: string) =>
  z
    .string({ error: `${field} must be a string.` })
    .max(500, `${field} must be at most 500 characters.`)
    .refine((s) => URL.canParse(s) && new URL(s).protocol === 'https:', `${field} must be an https: URL.`);

const RegistrationRequest = z.object(
  {
    redirect_uris: z
      .array(z.string({ error: 'Each redirect URI must be a string.' }), {
        error: 'redirect_uris is required: a list of the exact URIs the client receives its codes at.',
      })
      .min(1, 'redirect_uris needs at least one URI.')
      .max(MAX_REDIRECT_URIS, `redirect_uris may list at most ${MAX_REDIRECT_URIS} URIs.`),
    token_endpoint_auth_method: z
      .literal('none', {
        error:
          'This server registers public clients only: token_endpoint_auth_method must be "none" (or left out); PKCE proves the client.',
      })
      .optional(),
    grant_types: z
      .array(
        z.enum(['authorization_code', 'refresh_token'], {
          error: 'grant_types may hold only authorization_code and refresh_token.',
        }),
      )
      .max(2)
      .refine((g) => g.includes('authorization_code'), 'grant_types must include authorization_code.')
      .optional(),
    response_types: z
      .array(z.literal('code', { error: 'response_types may hold only "code".' }))
      .max(1)
      .optional(),
    client_name: text('client_name', 100).optional(),
    client_uri: webAddress('client_uri').optional(),
    logo_uri: webAddress('logo_uri').optional(),
    tos_uri: webAddress('tos_uri').optional(),
    policy_uri: webAddress('policy_uri').optional(),
    scope: text('scope', 1000).optional(),
    contacts: z.array(text('Each contact', 254)).max(5, 'contacts may list at most 5 addresses.').optional(),
    software_id: text('software_id', 100).optional(),
    software_version: text('software_version', 100).optional(),
    application_type: z.enum(['native', 'web'], { error: 'application_type must be "native" or "web".' }).optional(),
  },
  { error: 'The registration must be a JSON object of client metadata (RFC 7591).' },
);

/** What a registration answers (and keeps): the metadata as registered, with the client's id. */
export type RegisteredClient = OAuthClientInformationFull & { application_type?: 'native' | 'web' };

export async function registerClient(store: Store, body: unknown): Promise<RegisteredClient> {
  const parsed = RegistrationRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidClientMetadataError(issue.message);
  }
  const m = parsed.data;
  for (const uri of m.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new InvalidRedirectUriError(`The redirect URI ${uri.slice(0, 200)} ${problem}.`);
  }
  const now = nowIso();
  const client: RegisteredClient = {
    client_id: newId(),
    client_id_issued_at: Math.floor(Date.parse(now) / 1000),
    redirect_uris: [...new Set(m.redirect_uris)],
    token_endpoint_auth_method: 'none',
    // Every connection gets a rotating refresh token, so every client is registered for both grants (RFC 7591 §3.2.1
    // lets the server register other values than those asked for, and it says so in its answer).
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...(m.client_name !== undefined && { client_name: m.client_name }),
    ...(m.client_uri !== undefined && { client_uri: m.client_uri }),
    ...(m.logo_uri !== undefined && { logo_uri: m.logo_uri }),
    ...(m.tos_uri !== undefined && { tos_uri: m.tos_uri }),
    ...(m.policy_uri !== undefined && { policy_uri: m.policy_uri }),
    ...(m.scope !== undefined && { scope: m.scope }),
    ...(m.contacts !== undefined && { contacts: m.contacts }),
    ...(m.software_id !== undefined && { software_id: m.software_id }),
    ...(m.software_version !== undefined && { software_version: m.software_version }),
    ...(m.application_type !== undefined && { application_type: m.application_type }),
  };
  await store.write((tx) =>
    tx
      .insertInto('oauth_clients')
      .values({
        id: client.client_id,
        name: client.client_name ?? null,
        redirect_uris: JSON.stringify(client.redirect_uris),
        metadata: JSON.stringify(client),
        created_at: now,
      })
      .execute(),
  );
  return client;
}

export interface KnownClient {
  id: string;
  /** As the client named itself (unverified); null when it gave none. */
  name: string | null;
  redirectUris: string[];
}

const present = (row: OAuthClientRow): KnownClient => ({
  id: row.id,
  name: row.name,
  redirectUris: JSON.parse(row.redirect_uris) as string[],
});

/** A registered client by its id, or undefined (an id of any shape is only ever compared, never parsed). */
export async function findClient(store: Store, clientId: string): Promise<KnownClient | undefined> {
  if (clientId.length > 100) return undefined;
  const row = await store.readRow<OAuthClientRow>('SELECT * FROM oauth_clients WHERE id = ?', clientId);
  return row ? present(row) : undefined;
}
