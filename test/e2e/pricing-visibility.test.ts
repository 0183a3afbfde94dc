/**
 * Trade price, markup and margin exist only for callers holding pricing:read. For an assistant they are absent (not
 * null) at every depth of every surface: REST, tRPC and MCP over stdio. The owner sees them. Writing them needs
 * pricing:write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { http, seenBodies, trpc } from '../helpers/clients.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { expectProblem, httpMcp, keyPaths, spawnStdioMcp, type StdioMcp } from '../helpers/e2e.js';
import { ACTIONS } from '../../actions/index.js';
import { pricedFieldNames } from '../../src/core/action-plan.js';

/** The three the specification names, plus every field declared priced in the catalog (project, studio, totals …). */
const PRICING_KEYS = ACTIONS.length ? [...new Set(['tradePrice', 'markup', 'margin', ...pricedFieldNames()])] : [];

let server: RunningServer;
let assistantToken: string;
let projectId: string;
let lineId: string;
let mcp: StdioMcp;
let mcpHttp: Awaited<ReturnType<typeof httpMcp>>;

const rest = (token: string, path: string) => http(server.url, 'GET', path, { token });

/** A read's body, failing the test if the read itself was refused (absence must not come from an error). */
async function ok(read: Promise<{ status?: number; isError?: boolean; body?: unknown; structuredContent?: unknown }>) {
  const res = await read;
  if ('status' in res && res.status !== undefined) expect(res.status, JSON.stringify(res.body)).toBe(200);
  if ('isError' in res) expect(res.isError, JSON.stringify(res.structuredContent)).toBeFalsy();
  return 'structuredContent' in res ? res.structuredContent : res.body;
}

beforeAll(async () => {
  server = await startServer();
  const projects = await rest(server.token, '/v1/projects');
  projectId = projects.body.items.find((p: { name: string }) => p.name === 'Harbour House').id;
  // A line with a trade price and a markup of its own, so every pricing field has a value to hide.
  const lines = await rest(server.token, `/v1/projects/${projectId}/items?limit=1000`);
  lineId = lines.body.items[0].id;
  const current = await rest(server.token, `/v1/projects/${projectId}/items/${lineId}`);
  const priced = await http(server.url, 'PATCH', `/v1/projects/${projectId}/items/${lineId}`, {
    token: server.token,
    body: { tradePrice: { state: 'set', amount4: '4500000' }, markup: { ratio4: '4000' } },
    headers: { 'if-match': current.headers.get('etag')! },
  });
  expect(priced.status).toBe(200);
  assistantToken = (await memberWithToken(server.database, 'assistant', [{ projectId, level: 'edit' }])).token;
  mcp = await spawnStdioMcp({ database: server.database, token: assistantToken });
  mcpHttp = await httpMcp(server.url, assistantToken);
});
afterAll(async () => {
  await mcp?.close();
  await mcpHttp?.close();
  await server?.stop();
});

describe('the owner sees pricing', () => {
  it('a line carries tradePrice, markup and margin with values', async () => {
    const line = (await rest(server.token, `/v1/projects/${projectId}/items/${lineId}`)).body;
    expect(line.tradePrice).toEqual({ price: { amount4: '4500000', currency: 'GBP' }, state: 'set' });
    expect(line.markup).toEqual({ ratio4: '4000' });
    expect(line).toHaveProperty('margin');
    expect(line.margin).not.toBeNull();
  });

  it('every line of the list carries the three keys, and the project its default markup', async () => {
    const list = (await rest(server.token, `/v1/projects/${projectId}/items`)).body;
    for (const line of list.items)
      for (const k of ['tradePrice', 'markup', 'margin']) expect(line, `${line.id}.${k}`).toHaveProperty(k);
    expect((await rest(server.token, `/v1/projects/${projectId}`)).body).toHaveProperty('defaultMarkup');
  });

  it('over tRPC and MCP too', async () => {
    const line = await trpc(server.url, server.token).schedule.getScheduleLine.query({ projectId, lineId });
    for (const k of ['tradePrice', 'markup', 'margin']) expect(line).toHaveProperty(k);
    const owner = await httpMcp(server.url, server.token);
    try {
      const viaMcp = await ok(owner.call('get_line', { projectId, itemId: lineId }));
      for (const k of ['tradePrice', 'markup', 'margin']) expect(viaMcp).toHaveProperty(k);
    } finally {
      await owner.close();
    }
  });
});

describe('an assistant never sees pricing, on any surface', () => {
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['REST get_line', () => ok(rest(assistantToken, `/v1/projects/${projectId}/items/${lineId}`))],
    ['REST list_lines', () => ok(rest(assistantToken, `/v1/projects/${projectId}/items?archived=include`))],
    ['REST get_project', () => ok(rest(assistantToken, `/v1/projects/${projectId}`))],
    [
      'tRPC get_schedule_line',
      () => trpc(server.url, assistantToken).schedule.getScheduleLine.query({ projectId, lineId }),
    ],
    [
      'tRPC list_schedule_lines',
      () => trpc(server.url, assistantToken).schedule.listScheduleLines.query({ projectId }),
    ],
    [
      'tRPC get_schedule_line_history',
      () => trpc(server.url, assistantToken).schedule.getScheduleLineHistory.query({ projectId, lineId }),
    ],
    ['tRPC get_studio_project', () => trpc(server.url, assistantToken).projects.getStudioProject.query({ projectId })],
    ['tRPC get_studio_settings', () => trpc(server.url, assistantToken).studio.getStudioSettings.query({})],
    ['MCP (stdio) get_line', () => ok(mcp.call('get_line', { projectId, itemId: lineId }))],
    ['MCP (stdio) list_lines', () => ok(mcp.call('list_lines', { projectId }))],
    [
      'MCP (stdio) call_action get_schedule_line',
      () => ok(mcp.call('call_action', { name: 'get_schedule_line', arguments: { input: { projectId, lineId } } })),
    ],
    ['MCP (HTTP) get_line', () => ok(mcpHttp.call('get_line', { projectId, itemId: lineId }))],
    ['MCP (HTTP) get_project', () => ok(mcpHttp.call('get_project', { projectId }))],
  ];

  it.each(cases)('%s: pricing keys are absent at every depth', async (_name, read) => {
    const body = await read();
    expect(body, 'the read returned a body').toBeTruthy();
    expect(keyPaths(body, PRICING_KEYS)).toEqual([]);
  });

  it('still sees what a client sees: client price and retail price', async () => {
    const line = (await rest(assistantToken, `/v1/projects/${projectId}/items/${lineId}`)).body;
    expect(line).toHaveProperty('clientPrice');
    expect(line).toHaveProperty('retailPrice');
    expect(line.version).toBeTypeOf('number');
  });

  it('the history of a pricing change does not reveal the change', async () => {
    const history = await trpc(server.url, assistantToken).schedule.getScheduleLineHistory.query({ projectId, lineId });
    expect(JSON.stringify(history)).not.toContain('4500000');
  });

  it('project totals (pricing:read) are refused', async () => {
    await expect(trpc(server.url, assistantToken).projects.getProjectTotals.query({ projectId })).rejects.toMatchObject(
      { data: { serviceCode: 'FORBIDDEN' } },
    );
  });
});

describe('an assistant cannot write pricing', () => {
  async function state() {
    const res = await rest(server.token, `/v1/projects/${projectId}/items/${lineId}`);
    return { body: res.body, etag: res.headers.get('etag') };
  }

  it.each([
    ['tradePrice', { tradePrice: { state: 'set', amount4: '1' } }],
    ['markup', { markup: { ratio4: '0' } }],
    ['markup: null', { markup: null }],
  ])('a REST PATCH of %s is 403 FORBIDDEN and changes nothing', async (_name, patch) => {
    const before = await state();
    const res = await http(server.url, 'PATCH', `/v1/projects/${projectId}/items/${lineId}`, {
      token: assistantToken,
      body: patch,
      headers: { 'if-match': before.etag! },
    });
    expectProblem(res, 403, 'FORBIDDEN');
    expect(res.body.detail).toMatch(/pricing:write/);
    expect(await state()).toEqual(before);
  });

  it('the same patch over tRPC is FORBIDDEN', async () => {
    const before = await state();
    await expect(
      trpc(server.url, assistantToken).schedule.updateScheduleLine.mutate({
        projectId,
        lineId,
        expectedVersion: before.body.version,
        patch: { tradePrice: { state: 'set', amount4: '1' } },
      }),
    ).rejects.toMatchObject({ data: { serviceCode: 'FORBIDDEN' } });
    expect(await state()).toEqual(before);
  });

  it('a non-pricing edit by the assistant succeeds (the grant is edit)', async () => {
    // The assistant's ETag is its own read's: the representation it may see, without pricing.
    const before = await rest(assistantToken, `/v1/projects/${projectId}/items/${lineId}`);
    expect(before.headers.get('etag')).not.toBe((await state()).etag);
    const res = await http(server.url, 'PATCH', `/v1/projects/${projectId}/items/${lineId}`, {
      token: assistantToken,
      body: { finish: 'Waxed walnut' },
      headers: { 'if-match': before.headers.get('etag')! },
    });
    expect(res.status).toBe(200);
    expect(keyPaths(res.body, PRICING_KEYS)).toEqual([]);
    // The owner still sees the trade price the assistant could not see.
    expect((await state()).body.tradePrice.price.amount4).toBe('4500000');
  });
});

it('saw only integer numbers in every JSON body it received', () => {
  expect(seenBodies.length).toBeGreaterThan(20);
});
