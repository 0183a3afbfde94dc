import { z } from 'zod';
import type { Store } from '../../../db/store.js';
import type { Config } from '../../config.js';
import { ServiceError } from '../../core/errors.js';
import { ProviderRefused, type TokenSet } from './provider.js';
import { seal, unseal } from './sealed.js';
import { xeroProvider } from './xero.js';
import { type AccountingConnectionsTable, readConnectionRow } from './connection.js';

/** How many times a 429 is waited out before the call gives up, and the longest single wait honoured. */
const RATE_LIMIT_TRIES = 3;
const LONGEST_WAIT_MS = 60_000;

export interface XeroRequest {
  method: 'GET' | 'PUT' | 'POST';
  /** Under the Accounting API, e.g. `/Accounts`. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface XeroSession {
  tenantName: string;
  /** A call to the Accounting API: 429 waited out, a 401 answered by one refresh; the parsed body of a 2xx. */
  call(req: XeroRequest): Promise<unknown>;
}

/** Writes the connection's columns in a transaction of its own (see openXero for why not the act's). */
const setConnection = (store: Store, studioId: string, cols: Partial<AccountingConnectionsTable>) =>
  store.write(async (tx) => {
    await tx
      .updateTable('accounting_connections')
      .set({ ...cols, updated_at: new Date().toISOString() })
      .where('studio_id', '=', studioId)
      .execute();
  });

/** Keeps a refreshed pair of tokens, sealed; answers the sealed refresh token. */
async function keepTokens(config: Config, store: Store, studioId: string, tokens: TokenSet): Promise<string> {
  const refresh_token = await seal(config, tokens.refreshToken);
  await setConnection(store, studioId, {
    access_token: await seal(config, tokens.accessToken),
    refresh_token,
    access_expires_at: tokens.expiresAt,
  });
  return refresh_token;
}

/**
 * The studio's Xero session for one act, opened outside any transaction or snapshot (an action's `prepare`, an
 * operation's job): its kept tokens, refreshed when expired or refused (once). Xero rotates the refresh token on every
 * refresh and the old one stops working, so the new pair is written at once in a transaction of its own, whatever
 * becomes of the act; a refused refresh marks the connection needs_reconnect and answers ACCOUNTING_NOT_CONNECTED.
 * These writes are credentials the provider changed, not an act of the caller: they carry no version and no audit
 * event (nor a token), which is why they are not a handler's write. `onRetry` hears each rate-limit wait.
 */
export async function openXero(
  config: Config,
  studioId: string,
  store: Store,
  onRetry?: (waitMs: number) => void,
): Promise<XeroSession> {
  const row = await readConnectionRow(store.readDb, studioId);
  if (row?.status !== 'connected') throw new ServiceError('ACCOUNTING_NOT_CONNECTED');
  const provider = xeroProvider(config);
  let access = await unseal(config, row.access_token);
  let expiresAt = row.access_expires_at;
  let sealedRefreshToken = row.refresh_token;

  async function refresh() {
    const refreshToken = await unseal(config, sealedRefreshToken);
    try {
      if (!refreshToken) throw new ProviderRefused(400, ['the kept refresh token cannot be read']);
      const tokens = await provider.refresh(refreshToken);
      const sealedRefresh = await keepTokens(config, store, studioId, tokens);
      access = tokens.accessToken;
      sealedRefreshToken = sealedRefresh;
      expiresAt = tokens.expiresAt;
    } catch (err) {
      if (!(err instanceof ProviderRefused)) throw err;
      await setConnection(store, studioId, { status: 'needs_reconnect' });
      throw new ServiceError('ACCOUNTING_NOT_CONNECTED');
    }
  }

  const send = (req: XeroRequest) =>
    fetch(`${config.xero.apiUrl}/api.xro/2.0${req.path}`, {
      method: req.method,
      headers: {
        authorization: `Bearer ${access}`,
        'xero-tenant-id': row.tenant_id,
        accept: 'application/json',
        ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...req.headers,
      },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
    });

  async function call(req: XeroRequest): Promise<unknown> {
    if (!access || Date.parse(expiresAt) <= Date.now() + 30_000) await refresh();
    let refreshed = false;
    for (let tries = 0; ; ) {
      const res = await send(req);
      if (res.status === 401 && !refreshed) {
        refreshed = true;
        await refresh();
        continue;
      }
      if (res.status === 429 && ++tries < RATE_LIMIT_TRIES) {
        const waitMs = Math.min(LONGEST_WAIT_MS, Math.max(0, Number(res.headers.get('retry-after')) || 1) * 1000);
        onRetry?.(waitMs);
        await new Promise((r) => setTimeout(r, waitMs));
        continue;
      }
      const body = await res.json().catch(() => undefined);
      if (res.ok) return body;
      if (res.status === 401) throw new ServiceError('ACCOUNTING_NOT_CONNECTED');
      throw new ProviderRefused(res.status, xeroMessages(body, res.status));
    }
  }

  return { tenantName: row.tenant_name, call };
}

/** Xero's answer read through the fields the server uses; an answer without them fails as the provider's. */
export function answerOf<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ServiceError('ACCOUNTING_PROVIDER_FAILED', "Xero's answer lacked what its contract promises; try again.");
}

const ErrorAnswer = z.looseObject({
  Message: z.string().optional(),
  Detail: z.string().optional(),
  Elements: z
    .array(z.looseObject({ ValidationErrors: z.array(z.looseObject({ Message: z.string() })).optional() }))
    .optional(),
});

/** Xero's own words from an error answer: its validation errors, else its message, else the status. */
export function xeroMessages(body: unknown, status: number): string[] {
  const parsed = ErrorAnswer.safeParse(body);
  if (!parsed.success) return [`Xero answered ${status}`];
  const { Message, Detail, Elements } = parsed.data;
  const validation = (Elements ?? []).flatMap((e) => (e.ValidationErrors ?? []).map((v) => v.Message));
  if (validation.length) return validation;
  return [Message ?? Detail ?? `Xero answered ${status}`];
}

/** A provider refusal as the error an action answers, with Xero's words. */
export function providerError(err: ProviderRefused): ServiceError {
  return new ServiceError(
    'ACCOUNTING_PROVIDER_FAILED',
    `Xero refused the request: ${err.messages.join('; ')}. Nothing was changed here.`,
  );
}

/** Rethrows a provider refusal as providerError; anything else as it is. */
export function providerFailure(err: unknown): never {
  throw err instanceof ProviderRefused ? providerError(err) : err;
}
