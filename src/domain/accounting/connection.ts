import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import type { ConfirmationContext } from '../../core/confirmation.js';
import { seal, unseal } from './sealed.js';
import { xeroProvider } from './xero.js';

/** The studio's connection to its provider, one per studio: whose organisation, its tokens sealed, who connected it. */
export interface AccountingConnectionsTable {
  studio_id: string;
  provider: string;
  status: 'connected' | 'needs_reconnect';
  tenant_id: string;
  tenant_name: string;
  /** Sealed (sealed.ts), never the token itself. */
  access_token: string;
  /** Sealed (sealed.ts), never the token itself. */
  refresh_token: string;
  access_expires_at: string;
  connected_by: string;
  created_at: string;
  updated_at: string;
}

/** A connect_accounting link not yet followed back: its state, whose it is, the PKCE verifier. */
export interface AccountingAuthorizationsTable {
  state: string;
  studio_id: string;
  member_id: string;
  /** The PKCE verifier, sealed. */
  verifier: string;
  expires_at: string;
  created_at: string;
}
declare module '../../../db/schema.js' {
  interface Database {
    accounting_connections: AccountingConnectionsTable;
    accounting_authorizations: AccountingAuthorizationsTable;
  }
}

/** How long the link connect_accounting answers stays usable. */
const AUTHORIZATION_MINUTES = 10;

/** Where Xero sends the person back (registered as the app's redirect URI). */
export const callbackPath = '/accounting/xero/callback';

export type ConnectionState =
  | { status: 'not_connected'; provider: null; organisationName: null; connectedAt: null }
  | { status: 'connected' | 'needs_reconnect'; provider: 'xero'; organisationName: string; connectedAt: string };

export const presentConnection = (row: AccountingConnectionsTable | undefined): ConnectionState =>
  row
    ? { status: row.status, provider: 'xero', organisationName: row.tenant_name, connectedAt: row.created_at }
    : { status: 'not_connected', provider: null, organisationName: null, connectedAt: null };

export const readConnectionRow = (db: Kysely<Database>, studioId: string) =>
  db.selectFrom('accounting_connections').selectAll().where('studio_id', '=', studioId).executeTakeFirst();

export async function getConnection(ctx: Pick<ActionContext, 'db' | 'studioId'>): Promise<ConnectionState> {
  return presentConnection(await readConnectionRow(ctx.db, ctx.studioId));
}

const studioName = async (ctx: ConfirmationContext) =>
  (await ctx.db.selectFrom('studios').select('name').where('id', '=', ctx.studioId).executeTakeFirst())?.name ?? '';

export async function connectQuestion(ctx: ConfirmationContext): Promise<string> {
  const current = await readConnectionRow(ctx.db, ctx.studioId);
  const replacing = current ? ` It replaces the connection to ${current.tenant_name}.` : '';
  return `Connect ${await studioName(ctx)} to Xero? You will open a Xero page and choose the organisation; the studio can then read its chart of accounts and tax rates and send draft sales invoices and contacts to it.${replacing}`;
}

/**
 * Starts the authorization: a fresh state (bound to this studio and this member) and PKCE verifier, the verifier
 * kept sealed until the callback; answers the URL the person opens.
 */
export async function connectAccounting(ctx: ActionContext) {
  const provider = xeroProvider(ctx.config);
  const state = randomBytes(32).toString('base64url');
  const verifier = randomBytes(48).toString('base64url');
  const expiresAt = new Date(Date.parse(ctx.now) + AUTHORIZATION_MINUTES * 60_000).toISOString();
  await ctx.db
    .insertInto('accounting_authorizations')
    .values({
      state,
      studio_id: ctx.studioId,
      member_id: ctx.caller!.memberId,
      verifier: await seal(ctx.config, verifier),
      expires_at: expiresAt,
      created_at: ctx.now,
    })
    .execute();
  const authorizationUrl = provider.authorizationUrl({
    state,
    codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    redirectUri: `${ctx.config.baseUrl}${callbackPath}`,
  });
  ctx.audit({
    targetKind: 'accounting_connection',
    targetId: ctx.studioId,
    summary: 'Started connecting the studio to Xero',
  });
  return { provider: 'xero' as const, authorizationUrl, expiresAt };
}

export async function disconnectQuestion(ctx: ConfirmationContext): Promise<string | null> {
  const current = await readConnectionRow(ctx.db, ctx.studioId);
  if (!current) return null;
  return `Disconnect ${await studioName(ctx)} from Xero (${current.tenant_name})? The studio's access is revoked at Xero and its tokens forgotten; invoices already sent stay in Xero. Connecting again needs someone to agree in Xero.`;
}

/** Forgets the tokens now and revokes the refresh token at Xero once that has committed. */
export async function disconnectAccounting(ctx: ActionContext): Promise<ConnectionState> {
  const current = await readConnectionRow(ctx.db, ctx.studioId);
  if (!current) return presentConnection(undefined);
  await ctx.db.deleteFrom('accounting_connections').where('studio_id', '=', ctx.studioId).execute();
  const refreshToken = await unseal(ctx.config, current.refresh_token);
  if (refreshToken && ctx.config.xero.clientId && ctx.config.xero.clientSecret) {
    const provider = xeroProvider(ctx.config);
    ctx.afterCommit(() => void provider.revoke(refreshToken));
  }
  ctx.audit({
    targetKind: 'accounting_connection',
    targetId: ctx.studioId,
    summary: `Disconnected the studio from Xero (${current.tenant_name})`,
  });
  return presentConnection(undefined);
}

export function notConnected(): never {
  throw new ServiceError('ACCOUNTING_NOT_CONNECTED');
}
