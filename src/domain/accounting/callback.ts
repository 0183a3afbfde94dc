import type { Runtime } from '../../core/call.js';
import { seal, unseal } from './sealed.js';
import { xeroProvider } from './xero.js';
import { ProviderRefused } from './provider.js';
import { appendAuditEvents } from '../../core/audit.js';
import { callbackPath } from './connection.js';

export type CallbackOutcome =
  | { ok: true; organisationName: string }
  | { ok: false; reason: 'unknown_or_expired' | 'declined' | 'refused' | 'no_organisation' };

/**
 * Xero's redirect back: the state is taken (one use; it names the studio and the member who started), the code is
 * exchanged with the sealed PKCE verifier, the organisation read from `/connections`, and the tokens kept sealed.
 * Nothing here logs or answers a token.
 */
export async function completeAuthorization(
  rt: Runtime,
  query: { state?: string; code?: string; error?: string },
  now = new Date().toISOString(),
): Promise<CallbackOutcome> {
  if (!query.state) return { ok: false, reason: 'unknown_or_expired' };
  const started = await rt.store.write(async (tx) => {
    const row = await tx
      .selectFrom('accounting_authorizations')
      .selectAll()
      .where('state', '=', query.state!)
      .executeTakeFirst();
    if (row) await tx.deleteFrom('accounting_authorizations').where('state', '=', row.state).execute();
    return row && row.expires_at > now ? row : undefined;
  });
  if (!started) return { ok: false, reason: 'unknown_or_expired' };
  if (query.error || !query.code) return { ok: false, reason: 'declined' };
  const verifier = await unseal(rt.config, started.verifier);
  if (!verifier) return { ok: false, reason: 'unknown_or_expired' };
  const provider = xeroProvider(rt.config);
  try {
    const tokens = await provider.exchangeCode(query.code, verifier, `${rt.config.baseUrl}${callbackPath}`);
    const [tenant] = await provider.tenants(tokens.accessToken);
    if (!tenant) return { ok: false, reason: 'no_organisation' };
    const row = {
      studio_id: started.studio_id,
      provider: 'xero',
      status: 'connected' as const,
      tenant_id: tenant.id,
      tenant_name: tenant.name,
      access_token: await seal(rt.config, tokens.accessToken),
      refresh_token: await seal(rt.config, tokens.refreshToken),
      access_expires_at: tokens.expiresAt,
      connected_by: started.member_id,
      created_at: now,
      updated_at: now,
    };
    await rt.store.write(async (tx, _q, memo) => {
      await tx.deleteFrom('accounting_connections').where('studio_id', '=', started.studio_id).execute();
      await tx.insertInto('accounting_connections').values(row).execute();
      await appendAuditEvents(
        { db: tx, memo },
        {
          studioId: started.studio_id,
          actor: { kind: 'member', id: started.member_id, via: 'web' },
          action: 'connect_accounting',
          at: now,
          events: [
            {
              targetKind: 'accounting_connection',
              targetId: started.studio_id,
              summary: `Connected the studio to Xero (${tenant.name})`,
              changes: { organisation: { from: null, to: tenant.name } },
            },
          ],
        },
      );
    });
    return { ok: true, organisationName: tenant.name };
  } catch (err) {
    if (err instanceof ProviderRefused) return { ok: false, reason: 'refused' };
    throw err;
  }
}
