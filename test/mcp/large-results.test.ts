import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ACTIONS } from '../../actions/index.js';
import type { ResultPage } from '../../src/surfaces/result-pages/paging.js';
import { snapshotsOf } from '../../src/surfaces/result-pages/snapshot-cache.js';
import { describeActions } from '../../src/surfaces/mcp/describe.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { currentEtag, http } from '../helpers/clients.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { reassemble } from './reassemble.js';
import { firstItem } from '../helpers/schedule.js';

let app: TestApp;
let client: Client;
/** Changes a line's finish (so every read of the schedule changes) and returns the new finish. */
async function patchFinish(id: string): Promise<string> {
  const finish = `Changed ${Date.now()} ${Math.random()}`;
  const path = `/v1/projects/${app.projectId}/items/${id}`;
  const patched = await http(app.url, 'PATCH', path, {
    token: app.token,
    body: { finish },
    headers: { 'if-match': await currentEtag(app.url, app.token, path) },
  });
  expect(patched.status).toBe(200);
  return finish;
}

openTestAppWithMcp((opened) => ({ app, mcp: client } = opened));

const BUDGET = 8000;
const size = (v: unknown) => Buffer.byteLength(typeof v === 'string' ? v : JSON.stringify(v), 'utf8');
const hasProcedure = ACTIONS.some((a) => a.name === 'list_schedule_lines');

/** Calls a tool and checks the one rule every result keeps: no part of it over 8,000 bytes of JSON. */
async function call(name: string, args: Record<string, unknown>) {
  const res = await client.callTool({ name, arguments: args });
  expect(size(res.structuredContent), `${name} structuredContent`).toBeLessThanOrEqual(BUDGET);
  for (const c of res.content as Array<{ type: string; text?: string }>)
    if (c.text) expect(size(c.text), `${name} text`).toBeLessThanOrEqual(BUDGET);
  return res as typeof res & { structuredContent: Record<string, any> };
}

/** Pages of a read through read_action_result, from the snapshot a first call returned. */
function mcpPager(name: string, args: Record<string, unknown>, snapshot: string, count = { pages: 0 }) {
  return async (path: string | undefined, offset: number): Promise<ResultPage> => {
    count.pages++;
    const res = await call('read_action_result', {
      name,
      arguments: args,
      snapshot,
      ...(path ? { path } : {}),
      offset,
    });
    expect(res.isError, JSON.stringify(res.structuredContent)).toBeFalsy();
    return res.structuredContent.result_page as ResultPage;
  };
}

describe('large reads over MCP', () => {
  it('list_lines over the 43-line demo project answers a result_page, and its pages reassemble the exact REST body', async () => {
    const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items`, { token: app.token });
    expect(size(rest.body)).toBeGreaterThan(BUDGET);
    const first = await call('list_lines', { projectId: app.projectId });
    expect(first.isError).toBeFalsy();
    const page = first.structuredContent.result_page as ResultPage;
    expect(page).toMatchObject({ node: 'n0', type: 'object', snapshot: expect.any(String) });
    expect(page.entries!.find((e) => e.key === 'items')).toMatchObject({
      path: '/items',
      node: expect.stringMatching(/^n\d+$/),
      type: 'array',
    });
    const count = { pages: 0 };
    const whole = await reassemble(mcpPager('list_lines', { projectId: app.projectId }, page.snapshot, count));
    expect(whole).toEqual(rest.body);
    expect(JSON.stringify(whole)).toBe(JSON.stringify(rest.body));
    expect(count.pages).toBeGreaterThan(3);
  });

  it('a read just over 8,000 bytes carries most of its lines in the first answer, and the rest in one more call', async () => {
    let limit = 1;
    let rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?limit=${limit}`, { token: app.token });
    while (size({ result: rest.body }) <= BUDGET) {
      limit++;
      rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?limit=${limit}`, { token: app.token });
    }
    const args = { projectId: app.projectId, limit };
    const first = (await call('list_lines', args)).structuredContent.result_page as ResultPage;
    const items = first.entries!.find((e) => e.key === 'items')!;
    expect(items).toMatchObject({ node: 'n1', count: limit, remaining: limit - items.nextOffset! });
    expect(items.entries!.length).toBeGreaterThanOrEqual(limit - 2);
    const count = { pages: 0 };
    const pager = mcpPager('list_lines', args, first.snapshot, count);
    const whole = await reassemble(async (path, offset) =>
      path === undefined && offset === 0 ? first : pager(path, offset),
    );
    expect(JSON.stringify(whole)).toBe(JSON.stringify(rest.body));
    expect(count.pages).toBe(1);
  });

  it('call_action pages the same read under the same snapshot', async () => {
    const viaTool = (await call('list_lines', { projectId: app.projectId })).structuredContent
      .result_page as ResultPage;
    const viaCall = await call('call_action', { name: 'list_lines', arguments: { projectId: app.projectId } });
    expect(viaCall.structuredContent.result_page.snapshot).toBe(viaTool.snapshot);
    const small = await call('call_action', { name: 'list_lines', arguments: { projectId: app.projectId, limit: 2 } });
    expect(small.structuredContent.result.items).toHaveLength(2);
  });

  it('continues a node page by page: the same snapshot, path and offset give the same bounded page', async () => {
    const root = (await call('list_lines', { projectId: app.projectId })).structuredContent.result_page as ResultPage;
    const items = root.entries!.find((e) => e.key === 'items')!;
    const read = mcpPager('list_lines', { projectId: app.projectId }, root.snapshot);
    const p1 = await read(items.node, 0);
    expect(p1.type).toBe('array');
    const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items`, { token: app.token });
    expect(p1.count).toBe(rest.body.items.length);
    expect(p1.nextOffset).toBeGreaterThan(0);
    expect(p1.entries!.every((e) => 'value' in e)).toBe(true); // a line fits a page: lines come whole, never cut
    const p2 = await read(items.node, p1.nextOffset!);
    expect(p2.offset).toBe(p1.nextOffset);
    expect(await read(items.node, p1.nextOffset!)).toEqual(p2);
    // A JSON Pointer reaches the same node.
    expect(await read('/items', 0)).toEqual(p1);
  });

  it('pages a kept snapshot to its end even after the data changed: one consistent version, never mixed', async () => {
    const args = { projectId: app.projectId };
    const root = (await call('list_lines', args)).structuredContent.result_page as ResultPage;
    const items = (
      await call('read_action_result', { name: 'list_lines', arguments: args, snapshot: root.snapshot, path: 'n1' })
    ).structuredContent.result_page as ResultPage;
    const first = items.entries![0]!.value as { id: string; version: number; finish: string | null };
    const changed = await patchFinish(first.id);
    const again = (
      await call('read_action_result', { name: 'list_lines', arguments: args, snapshot: root.snapshot, path: 'n1' })
    ).structuredContent.result_page as ResultPage;
    expect(again.snapshot).toBe(root.snapshot);
    expect((again.entries![0]!.value as { finish: string | null }).finish).toBe(first.finish);
    expect((again.entries![0]!.value as { finish: string | null }).finish).not.toBe(changed);
  });

  it('answers SNAPSHOT_CHANGED once the data changed and the kept snapshot is gone, and a fresh read starts over', async () => {
    const args = { projectId: app.projectId };
    const root = (await call('list_lines', args)).structuredContent.result_page as ResultPage;
    const line = await firstItem(app);
    await patchFinish(line.id);
    // What a continuation sees on another server process, or after the kept snapshot expired.
    snapshotsOf(app.rt).clear();
    const stale = await call('read_action_result', {
      name: 'list_lines',
      arguments: args,
      snapshot: root.snapshot,
      path: 'n1',
      offset: 0,
    });
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent).toMatchObject({ code: 'SNAPSHOT_CHANGED', nextStep: expect.any(String) });
    const fresh = await call('read_action_result', { name: 'list_lines', arguments: args });
    expect(fresh.structuredContent.result_page.snapshot).not.toBe(root.snapshot);
  });

  it('refuses writes, unknown actions and unknown nodes with clear codes', async () => {
    const write = await call('read_action_result', { name: 'update_line', arguments: { projectId: app.projectId } });
    expect(write.structuredContent).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    const unknown = await call('read_action_result', { name: 'list_everything' });
    expect(unknown.structuredContent).toMatchObject({ code: 'NOT_FOUND' });
    const root = (await call('list_lines', { projectId: app.projectId })).structuredContent.result_page as ResultPage;
    const nowhere = await call('read_action_result', {
      name: 'list_lines',
      arguments: { projectId: app.projectId },
      snapshot: root.snapshot,
      path: '/nothing',
    });
    expect(nowhere.structuredContent).toMatchObject({ code: 'NOT_FOUND' });
    const badOffset = await call('read_action_result', {
      name: 'list_lines',
      arguments: { projectId: app.projectId },
      offset: -1,
    });
    expect(badOffset.structuredContent).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('a small read through read_action_result is the whole result', async () => {
    const projects = await call('read_action_result', { name: 'list_projects', arguments: {} });
    expect(projects.isError).toBeFalsy();
    expect(projects.structuredContent.result.items.length).toBeGreaterThan(0);
  });

  it('pages get_action too, reassembling the exact description', async () => {
    const names = ['update_line', 'create_line', 'list_lines', 'get_line', 'move_line', 'archive_line'];
    const first = await call('get_action', { names });
    const page = first.structuredContent.result_page as ResultPage;
    expect(page).toBeDefined();
    const whole = await reassemble(mcpPager('get_action', { names }, page.snapshot));
    expect(JSON.stringify(whole)).toBe(
      JSON.stringify(describeActions(names.map((n) => ACTIONS.find((a) => a.name === n)!))),
    );
  });

  it.skipIf(!hasProcedure)(
    'pages a procedure read: arguments wrap the input, and the snapshot is the one GET /api/agent-results uses',
    async () => {
      const args = { input: { projectId: app.projectId } };
      const first = await call('call_action', { name: 'list_schedule_lines', arguments: args });
      const page = first.structuredContent.result_page as ResultPage;
      expect(page).toBeDefined();
      const viaMcp = await reassemble(mcpPager('list_schedule_lines', args, page.snapshot));
      const selection = JSON.stringify({ snapshot: page.snapshot, path: '/items', offset: 0 });
      const res = await http(
        app.url,
        'GET',
        `/api/agent-results?name=list_schedule_lines&input=${encodeURIComponent(JSON.stringify(args.input))}&selection=${encodeURIComponent(selection)}`,
        { token: app.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.result_page.snapshot).toBe(page.snapshot);
      expect(res.body.result_page.entries[0].value).toEqual((viaMcp as { items: unknown[] }).items[0]);
    },
  );
});

describe('GET /api/agent-results', () => {
  const base = (name: string, input?: unknown, selection?: unknown) =>
    `/api/agent-results?name=${name}` +
    (input !== undefined ? `&input=${encodeURIComponent(JSON.stringify(input))}` : '') +
    (selection !== undefined ? `&selection=${encodeURIComponent(JSON.stringify(selection))}` : '');

  it('pages a large read within 8,000 bytes per response, reassembling the exact REST body', async () => {
    const input = { projectId: app.projectId };
    const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items`, { token: app.token });
    const first = await http(app.url, 'GET', base('list_lines', input), { token: app.token });
    expect(first.status).toBe(200);
    const snapshot = first.body.result_page.snapshot as string;
    let pages = 0;
    const whole = await reassemble(async (path, offset) => {
      pages++;
      const res = await http(
        app.url,
        'GET',
        base('list_lines', input, { snapshot, ...(path ? { path } : {}), offset }),
        { token: app.token },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(size(res.body)).toBeLessThanOrEqual(BUDGET);
      return res.body.result_page;
    });
    expect(JSON.stringify(whole)).toBe(JSON.stringify(rest.body));
    expect(pages).toBeGreaterThan(3);
    const stale = await http(app.url, 'GET', base('list_lines', input, { snapshot: 'not-the-snapshot', path: 'n1' }), {
      token: app.token,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('SNAPSHOT_CHANGED');
  });

  it('answers a small read whole', async () => {
    const line = await firstItem(app);
    const res = await http(app.url, 'GET', base('get_line', { projectId: app.projectId, itemId: line.id }), {
      token: app.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(line);
  });

  it('refuses missing tokens (401), writes (405), bad JSON and unknown parameters (400), unknown actions and foreign projects (404)', async () => {
    const anonymous = await http(app.url, 'GET', base('list_lines', { projectId: app.projectId }));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Bearer');
    const write = await http(app.url, 'GET', base('update_line', { projectId: app.projectId }), { token: app.token });
    expect(write.status).toBe(405);
    expect(write.body.code).toBe('METHOD_NOT_ALLOWED');
    const badJson = await http(app.url, 'GET', `/api/agent-results?name=list_lines&input=%7Bnope`, {
      token: app.token,
    });
    expect(badJson.status).toBe(400);
    expect(badJson.body.code).toBe('VALIDATION_FAILED');
    const extra = await http(app.url, 'GET', `${base('list_projects', {})}&cursor=x`, { token: app.token });
    expect(extra.status).toBe(400);
    const invalid = await http(app.url, 'GET', base('list_lines', { projectId: app.projectId, limit: 0 }), {
      token: app.token,
    });
    expect(invalid.status).toBe(400);
    const unknown = await http(app.url, 'GET', base('list_everything', {}), { token: app.token });
    expect(unknown.status).toBe(404);
    const outsider = await memberWithToken(app.database, 'designer');
    const foreign = await http(app.url, 'GET', base('list_lines', { projectId: app.projectId }), {
      token: outsider.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
  });
});

describe('fields: a long list read compactly', () => {
  const row = (r: Record<string, unknown>, keys: string[]) => keys.map((k) => r[k]);

  it('call_action and read_action_result answer the named fields of each line (and id) as rows; pages reassemble it', async () => {
    const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items`, { token: app.token });
    const expected = {
      columns: ['id', 'code', 'heading', 'status'],
      items: rest.body.items.map((l: Record<string, unknown>) => row(l, ['id', 'code', 'heading', 'status'])),
      nextCursor: null,
      sections: rest.body.sections,
    };
    const fields = ['code', 'heading', 'status'];
    const first = await call('call_action', { name: 'list_lines', arguments: { projectId: app.projectId }, fields });
    expect(first.isError, JSON.stringify(first.structuredContent)).toBeFalsy();
    // The 43 demo lines fit one answer when read compactly; whole, they take several pages.
    expect(first.structuredContent.result).toEqual(expected);
    expect(size(expected)).toBeLessThan(BUDGET);
    expect(size(rest.body)).toBeGreaterThan(BUDGET);
    const viaRead = await call('read_action_result', {
      name: 'list_lines',
      arguments: { projectId: app.projectId },
      fields,
    });
    expect(viaRead.structuredContent.result).toEqual(expected);
    // Where the selection is still large, it pages like any read, and reassembles to the projection.
    const wide = ['code', 'heading', 'description', 'status', 'clientPrice', 'finish'];
    const widePage = await call('read_action_result', {
      name: 'list_lines',
      arguments: { projectId: app.projectId },
      fields: wide,
    });
    const page = widePage.structuredContent.result_page as ResultPage;
    expect(page, JSON.stringify(widePage.structuredContent).slice(0, 300)).toBeDefined();
    const pager = async (path: string | undefined, offset: number): Promise<ResultPage> => {
      const res = await call('read_action_result', {
        name: 'list_lines',
        arguments: { projectId: app.projectId },
        fields: wide,
        snapshot: page.snapshot,
        ...(path ? { path } : {}),
        offset,
      });
      return res.structuredContent.result_page as ResultPage;
    };
    expect(await reassemble(pager)).toEqual({
      columns: ['id', ...wide],
      items: rest.body.items.map((l: Record<string, unknown>) => row(l, ['id', ...wide])),
      nextCursor: null,
      sections: rest.body.sections,
    });
  });

  it('one record keeps its id and etag beside the fields asked for', async () => {
    const line = await firstItem(app);
    const res = await call('call_action', {
      name: 'get_line',
      arguments: { projectId: app.projectId, itemId: line.id },
      fields: ['heading'],
    });
    expect(res.structuredContent.result).toEqual({ id: line.id, heading: line.heading, etag: expect.any(String) });
  });

  it('an unknown field is refused with the fields there are; a write or a discovery read takes no fields', async () => {
    const unknown = await call('call_action', {
      name: 'list_lines',
      arguments: { projectId: app.projectId },
      fields: ['heading', 'colour'],
    });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'fields' }] });
    expect(unknown.structuredContent.message).toContain('no field colour');
    expect(unknown.structuredContent.message).toContain('leadTimeDays');

    const line = await firstItem(app);
    const write = await call('call_action', {
      name: 'update_line',
      arguments: { projectId: app.projectId, itemId: line.id, ifMatch: `"${line.version}"`, finish: 'Not written' },
      fields: ['finish'],
    });
    expect(write.structuredContent.code).toBe('VALIDATION_FAILED');
    const after = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${line.id}`, { token: app.token });
    expect(after.body.version).toBe(line.version);
    expect(after.body.finish).toBe(line.finish);

    const discovery = await call('read_action_result', {
      name: 'search_actions',
      arguments: { query: 'move a line' },
      fields: ['name'],
    });
    expect(discovery.structuredContent.code).toBe('VALIDATION_FAILED');
  });
});
