import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { http } from '../helpers/clients.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => app?.close());

describe('get_line through REST and MCP', () => {
  it('returns the same line, and MCP adds the exact quoted etag REST sends as ETag', async () => {
    const list = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?limit=1`, { token: app.token });
    const line = list.body.items[0];
    const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${line.id}`, { token: app.token });
    const client = await app.mcp();
    const viaMcp = await client.callTool({ name: 'get_line', arguments: { projectId: app.projectId, itemId: line.id } });
    expect(viaMcp.isError).toBeFalsy();
    const { etag, ...mcpLine } = viaMcp.structuredContent as Record<string, unknown>;
    expect(mcpLine).toEqual(rest.body);
    expect(etag).toBe(rest.headers.get('etag'));
  });
});

describe('project ETag', () => {
  it('changes when a line is added, so If-None-Match never serves a stale line count', async () => {
    const path = `/v1/projects/${app.projectId}`;
    const first = await http(app.url, 'GET', path, { token: app.token });
    const etag = first.headers.get('etag')!;
    expect((await http(app.url, 'GET', path, { token: app.token, headers: { 'if-none-match': etag } })).status).toBe(304);
    const section = first.body.sections[0];
    const created = await http(app.url, 'POST', `${path}/items`, {
      token: app.token,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { sectionId: section.id, heading: 'Side table' },
    });
    expect(created.status).toBe(201);
    const after = await http(app.url, 'GET', path, { token: app.token, headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.sections[0].lineCount).toBe(section.lineCount + 1);
    expect(after.headers.get('etag')).not.toBe(etag);
  });
});

describe('text search', () => {
  it('takes % and _ literally and ignores case', async () => {
    const sectionId = (await http(app.url, 'GET', `/v1/projects/${app.projectId}`, { token: app.token })).body.sections[0].id;
    const make = (heading: string) =>
      http(app.url, 'POST', `/v1/projects/${app.projectId}/items`, { token: app.token, headers: { 'idempotency-key': crypto.randomUUID() }, body: { sectionId, heading } });
    await make('Wool 100% throw');
    await make('Wool 1000 throw');
    await make('Cushion_cover');
    await make('Cushion cover');
    const find = async (q: string) =>
      (await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?q=${encodeURIComponent(q)}`, { token: app.token })).body.items.map((l: { heading: string }) => l.heading);
    expect(await find('100%')).toEqual(['Wool 100% throw']);
    expect(await find('ion_c')).toEqual(['Cushion_cover']);
    expect(await find('WOOL 100')).toEqual(expect.arrayContaining(['Wool 100% throw', 'Wool 1000 throw']));
  });
});
