/**
 * The accounting domain against Xero's own contract (see xero-world.ts): connecting through the standards OAuth
 * server with PKCE, the organisation read from /connections, the chart of accounts and the mapping, the failures the
 * server must survive (a 429 then success, an expired access token refreshed, a revoked refresh token), disconnecting,
 * and a walk over every answer, audit event and stored row proving no token is ever shown.
 */
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../helpers/in-process.js';
import type { Trpc } from '../helpers/clients.js';
import { callAction, codeOf } from '../helpers/calls.js';
import { uuid } from '../helpers/ids.js';
import { agreeInBrowser, answerLog, CANARY, openXeroTestApp, type XeroWorld } from './xero-world.js';

let xero: XeroWorld;
let app: TestApp;
let owner: Trpc;
let mcp: Client;
openXeroTestApp((opened) => ({ app, owner, mcp, xero } = opened));

/** Every answer the tests received, walked at the end for the canary. */
const { answers, seen } = answerLog();
/** confirm: true on an action whose own input is empty (its typed input leaves no room for the added field). */
const CONFIRM = { confirm: true } as unknown as Record<string, never>;
const keyed = (confirm: boolean) =>
  ({ commandKey: uuid(), ...(confirm ? { confirm } : {}) }) as unknown as Record<string, never>;

async function connect() {
  const started = seen(await owner.accounting.connectAccounting.mutate(keyed(true)));
  return seen(await agreeInBrowser(started.authorizationUrl));
}

describe('connect_accounting and get_accounting_connection', () => {
  it('is not connected at first, the same over MCP', async () => {
    expect(seen(await owner.accounting.getAccountingConnection.query({}))).toMatchObject({ status: 'not_connected' });
    const viaMcp = await callAction(mcp, 'get_accounting_connection', {});
    expect(seen(viaMcp.result).status).toBe('not_connected');
  });

  it('asks the person, then answers a Xero URL with PKCE S256, offline_access and a fresh state', async () => {
    expect(await codeOf(owner.accounting.connectAccounting.mutate(keyed(false)))).toBe('CONFIRMATION_REQUIRED');
    const started = seen(await owner.accounting.connectAccounting.mutate(keyed(true)));
    const url = new URL(started.authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${xero.env.STUDIO_XERO_LOGIN_URL}/identity/connect/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('scope')!.split(' ')).toContain('offline_access');
    expect(url.searchParams.get('redirect_uri')).toBe(`${app.url}/accounting/xero/callback`);
    const again = await owner.accounting.connectAccounting.mutate(keyed(true));
    expect(new URL(again.authorizationUrl).searchParams.get('state')).not.toBe(url.searchParams.get('state'));
    // The same over MCP (a client that cannot ask its person sends confirm: true).
    const viaMcp = await callAction(mcp, 'connect_accounting', { commandKey: uuid(), confirm: true });
    const mcpUrl = new URL(seen(viaMcp.result).authorizationUrl);
    expect(mcpUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(mcpUrl.searchParams.get('state')).not.toBe(url.searchParams.get('state'));
  });

  it('the callback exchanges the code, reads the organisation and keeps the connection; a state is used once', async () => {
    const started = await owner.accounting.connectAccounting.mutate(keyed(true));
    const agreed = await fetch(started.authorizationUrl, { redirect: 'manual' });
    const back = agreed.headers.get('location')!;
    const page = await fetch(back);
    expect(await page.text()).toContain('Connected to Xero');
    expect(page.status).toBe(200);
    const replay = await fetch(back);
    expect(replay.status).toBe(400);
    const state = seen(await owner.accounting.getAccountingConnection.query({}));
    expect(state.status).toBe('connected');
    expect(state.organisationName).toBeTruthy();
    expect(xero.sent.some((s) => s.path === '/Connections')).toBe(true);
  });

  it('an unknown state changes nothing', async () => {
    const page = await fetch(`${app.url}/accounting/xero/callback?state=nope&code=abc`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('unknown, already used or expired');
  });
});

describe('list_accounting_accounts and map_accounting_accounts', () => {
  it("reads the chart and tax rates from Xero's Accounting API, through tRPC and MCP", async () => {
    const chart = seen(await owner.accounting.listAccountingAccounts.query({}));
    expect(chart.accounts.length).toBeGreaterThan(0);
    expect(chart.accounts.some((a) => a.type === 'REVENUE')).toBe(true);
    expect(chart.taxRates.length).toBeGreaterThan(0);
    expect(chart.mappings.map((m) => m.kind)).toContain('goods');
    const viaMcp = await callAction(mcp, 'list_accounting_accounts', {});
    expect(seen(viaMcp.result).accounts.length).toBe(chart.accounts.length);
    const calls = xero.sent.filter((s) => s.path.startsWith('/api.xro/2.0/'));
    expect(calls.every((s) => s.headers['xero-tenant-id'])).toBe(true);
  });

  it('maps kinds to a revenue account and an active tax type; a code not in the chart is refused', async () => {
    const chart = await owner.accounting.listAccountingAccounts.query({});
    const revenue = chart.accounts.find((a) => a.type === 'REVENUE' && a.status === 'ACTIVE')!;
    const tax = chart.taxRates.find((t) => t.status === 'ACTIVE')!;
    const mapped = seen(
      await owner.accounting.mapAccountingAccounts.mutate({
        mappings: [
          { kind: 'design_fee', accountCode: revenue.code, taxType: tax.taxType },
          { kind: 'freight', accountCode: revenue.code, taxType: tax.taxType },
        ],
      }),
    );
    expect(mapped.mappings.find((m) => m.kind === 'design_fee')).toEqual({
      kind: 'design_fee',
      accountCode: revenue.code,
      taxType: tax.taxType,
    });
    expect(mapped.mappings.find((m) => m.kind === 'time')).toMatchObject({ accountCode: null });
    const bad = await callAction(mcp, 'map_accounting_accounts', {
      mappings: [{ kind: 'time', accountCode: 'NOPE9', taxType: tax.taxType }],
    });
    expect(bad.code).toBe('VALIDATION_FAILED');
    const after = await owner.accounting.listAccountingAccounts.query({});
    expect(after.mappings.find((m) => m.kind === 'time')!.accountCode).toBeNull();
  });
});

describe("Xero's limits", () => {
  it('a 429 is waited out (Retry-After) and the read succeeds', async () => {
    const before = xero.sent.length;
    xero.faults.push(429);
    const chart = await owner.accounting.listAccountingAccounts.query({});
    expect(chart.accounts.length).toBeGreaterThan(0);
    const during = xero.sent.slice(before);
    expect(during[0]).toMatchObject({ status: 429, injected: true });
    expect(during[1]!.path).toBe(during[0]!.path);
  });

  it('a 401 (an access token Xero no longer takes) is refreshed once and the read succeeds', async () => {
    let refreshes = 0;
    const count = () => void (refreshes += 1);
    xero.oauth.service.on('beforeResponse', count);
    xero.faults.push(401);
    const chart = await owner.accounting.listAccountingAccounts.query({});
    xero.oauth.service.off('beforeResponse', count);
    expect(chart.accounts.length).toBeGreaterThan(0);
    expect(refreshes).toBe(1);
  });

  it('a refused refresh (revoked in Xero) turns the connection to needs_reconnect', async () => {
    xero.oauth.service.once('beforeResponse', (res: { statusCode: number; body: unknown }) => {
      res.statusCode = 400;
      res.body = { error: 'invalid_grant' };
    });
    xero.faults.push(401);
    expect(await codeOf(owner.accounting.listAccountingAccounts.query({}))).toBe('ACCOUNTING_NOT_CONNECTED');
    expect(seen(await owner.accounting.getAccountingConnection.query({})).status).toBe('needs_reconnect');
    expect(await codeOf(owner.accounting.listAccountingAccounts.query({}))).toBe('ACCOUNTING_NOT_CONNECTED');
    const reconnected = await connect();
    expect(reconnected.status).toBe(200);
    expect(seen(await owner.accounting.getAccountingConnection.query({})).status).toBe('connected');
  });
});

describe('disconnect_accounting', () => {
  it('asks, revokes the refresh token at Xero and forgets the tokens; disconnecting again asks nothing', async () => {
    expect(await codeOf(owner.accounting.disconnectAccounting.mutate({}))).toBe('CONFIRMATION_REQUIRED');
    const revoked = new Promise<void>((resolve) => xero.oauth.service.once('beforeRevoke', () => resolve()));
    expect(seen(await owner.accounting.disconnectAccounting.mutate(CONFIRM)).status).toBe('not_connected');
    await revoked;
    expect(seen(await owner.accounting.disconnectAccounting.mutate({})).status).toBe('not_connected');
    expect(await codeOf(owner.accounting.listAccountingAccounts.query({}))).toBe('ACCOUNTING_NOT_CONNECTED');
    expect((await connect()).status).toBe(200);
  });
});

describe('tokens never appear', () => {
  it('in no answer, audit event or stored row, and every request met Xero’s contract', async () => {
    expect(JSON.stringify(answers)).not.toContain(CANARY);
    const events = seen(await owner.audit.listStudioAuditEvents.query({ limit: 100 }));
    expect(events.items.some((e) => e.target.kind === 'accounting_connection')).toBe(true);
    expect(JSON.stringify(events)).not.toContain(CANARY);
    const db = app.rt.store.readDb;
    for (const table of ['accounting_connections', 'accounting_authorizations', 'audit_events'] as const) {
      expect(JSON.stringify(await db.selectFrom(table).selectAll().execute())).not.toContain(CANARY);
    }
    const [row] = await db.selectFrom('accounting_connections').selectAll().execute();
    expect(row!.access_token).toMatch(/^v1\./);
    expect(xero.refused()).toEqual([]);
  });
});
