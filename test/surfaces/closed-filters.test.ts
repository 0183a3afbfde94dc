/**
 * A schedule's closed filters: priceState takes one state (as before) or several at once, and an unknown value of a
 * closed filter is a 400 naming the values it takes rather than an empty list, through tRPC, MCP and /v1.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { allPages, callTool, errorOf } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));

type State = 'set' | 'tbc' | 'poa' | 'included' | 'by_others';
const idsIn = async (priceState: State | State[]) =>
  (
    await allPages((cursor) =>
      owner.schedule.listScheduleLines.query({ projectId: app.projectId, priceState, cursor, limit: 200 }),
    )
  )
    .map((l) => l.id)
    .sort();

describe('priceState', () => {
  it('tRPC: a list keeps the lines of any of its states, exactly the union of each state alone', async () => {
    const [tbc, poa] = [await idsIn('tbc'), await idsIn('poa')];
    expect(tbc.length).toBeGreaterThan(0);
    expect(poa.length).toBeGreaterThan(0);
    expect(await idsIn(['tbc', 'poa'])).toEqual([...new Set([...tbc, ...poa])].sort());
    expect(await idsIn(['tbc'])).toEqual(tbc);
  });

  it('MCP and /v1: several states at once, and an unknown one refused naming the states', async () => {
    const both = [...new Set([...(await idsIn('tbc')), ...(await idsIn('poa'))])].sort();
    const viaMcp = await callTool(mcp, 'list_lines', { projectId: app.projectId, priceState: ['tbc', 'poa'] });
    expect(viaMcp.result.items.map((l: { id: string }) => l.id).sort()).toEqual(both);
    const wrong = await callTool(mcp, 'list_lines', { projectId: app.projectId, priceState: ['tbc', 'maybe'] });
    expect(wrong.error?.code).toBe('VALIDATION_FAILED');
    expect(wrong.error?.message).toContain('set, tbc, poa, included, by_others');

    const headers = { authorization: `Bearer ${app.token}` };
    const base = `${app.url}/v1/projects/${app.projectId}/items`;
    const res = await fetch(`${base}?priceState=tbc&priceState=poa&limit=500`, { headers });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { id: string }[] };
    expect(body.items.map((l) => l.id).sort()).toEqual(both);
    const single = await fetch(`${base}?priceState=tbc&limit=500`, { headers });
    expect(((await single.json()) as { items: unknown[] }).items).toHaveLength((await idsIn('tbc')).length);
    const bad = await fetch(`${base}?priceState=pending`, { headers });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('set, tbc, poa, included, by_others');
  });
});

describe('any closed filter', () => {
  it('an unknown status, archived or sort value is a 400 naming the allowed values, on every surface', async () => {
    const headers = { authorization: `Bearer ${app.token}` };
    for (const [query, allowed] of [
      ['status=done', '"installed"'],
      ['archived=all', '"include"'],
      ['sort=price', '"heading"'],
    ] as const) {
      const res = await fetch(`${app.url}/v1/projects/${app.projectId}/items?${query}`, { headers });
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(await res.json()), query).toContain(allowed.replaceAll('"', '\\"'));
    }
    const viaTrpc = await errorOf(
      owner.schedule.listScheduleLines.query({ projectId: app.projectId, status: 'done' as never }),
    );
    expect(viaTrpc.message).toContain('"installed"');
    const viaMcp = await callTool(mcp, 'list_lines', { projectId: app.projectId, archived: 'all' });
    expect(viaMcp.error?.message).toContain('"include"');
  });
});
