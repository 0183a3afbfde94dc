import type { Config } from '../../config.js';
import { ServiceError } from '../../core/errors.js';
import { type AccountingProvider, type AuthorizationStart, ProviderRefused, type TokenSet } from './provider.js';

/** What the studio asks Xero for: invoices and contacts, the chart of accounts and tax rates, and a refresh token. */
export const XERO_SCOPES = 'openid offline_access accounting.transactions accounting.contacts accounting.settings.read';

/** Xero: login (the person agrees), identity (tokens), API (connections, Accounting API); all from configuration. */
export function xeroProvider(config: Pick<Config, 'xero'>): AccountingProvider {
  const { clientId, clientSecret, loginUrl, identityUrl, apiUrl } = config.xero;
  if (!clientId || !clientSecret) throw new ServiceError('ACCOUNTING_NOT_CONFIGURED');
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;

  async function tokenRequest(form: Record<string, string>): Promise<TokenSet> {
    const res = await fetch(`${identityUrl}/connect/token`, {
      method: 'POST',
      headers: {
        authorization: basic,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form),
    });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) throw new ProviderRefused(res.status, [String(body.error ?? `HTTP ${res.status}`)]);
    if (typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string') {
      throw new ProviderRefused(res.status, ['the token answer had no access and refresh token']);
    }
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : 1800;
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      expiresAt: new Date(Date.now() + seconds * 1000).toISOString(),
    };
  }

  return {
    name: 'xero',
    authorizationUrl({ state, codeChallenge, redirectUri }: AuthorizationStart) {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: XERO_SCOPES,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
      return `${loginUrl}/identity/connect/authorize?${query}`;
    },
    exchangeCode: (code, verifier, redirectUri) =>
      tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }),
    refresh: (refreshToken) => tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    async tenants(accessToken) {
      const res = await fetch(`${apiUrl}/Connections`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      });
      if (!res.ok) throw new ProviderRefused(res.status, [`Xero's Connections answered ${res.status}`]);
      const list = (await res.json()) as { tenantId?: string; tenantName?: string; tenantType?: string }[];
      const tenants = Array.isArray(list) ? list.filter((c) => c.tenantId) : [];
      // An organisation first (a practice connection is no place for sales invoices), else what Xero gave.
      const ordered = [
        ...tenants.filter((c) => c.tenantType === 'ORGANISATION'),
        ...tenants.filter((c) => c.tenantType !== 'ORGANISATION'),
      ];
      return ordered.map((c) => ({ id: c.tenantId!, name: c.tenantName ?? 'Xero organisation' }));
    },
    async revoke(refreshToken) {
      await fetch(`${identityUrl}/connect/revocation`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: refreshToken }),
      }).catch(() => undefined);
    },
  };
}
