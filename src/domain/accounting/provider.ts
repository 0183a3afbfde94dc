/**
 * What the studio needs from an accounting provider. Xero is the one implementation (xero.ts); QuickBooks Online
 * would be a second behind the same interface. No method logs or returns a token anywhere but to its caller.
 */
export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  /** ISO time the access token stops working. */
  expiresAt: string;
}

export interface Tenant {
  id: string;
  name: string;
}

export interface AuthorizationStart {
  state: string;
  codeChallenge: string;
  redirectUri: string;
}

export interface AccountingProvider {
  name: 'xero';
  /** The URL the person opens to agree, with PKCE (S256) and offline access. */
  authorizationUrl(start: AuthorizationStart): string;
  exchangeCode(code: string, verifier: string, redirectUri: string): Promise<TokenSet>;
  /** Throws ProviderRefused when the refresh token no longer works (revoked, expired). */
  refresh(refreshToken: string): Promise<TokenSet>;
  tenants(accessToken: string): Promise<Tenant[]>;
  /** Revokes the refresh token (and with it the access tokens it made); a refusal is ignored. */
  revoke(refreshToken: string): Promise<void>;
}

/** The provider answered with a refusal (a 4xx other than 429); `messages` are its own words. */
export class ProviderRefused extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(`the provider answered ${status}: ${messages.join('; ')}`);
  }
}
