/**
 * The same call through REST, tRPC and MCP gives the same result and the same error code: the surfaces are thin
 * adapters over one `invoke`, and this holds them to it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { currentEtag, http, trpc, type Trpc } from '../helpers/clients.js';
import { callTool, codeOf } from '../helpers/calls.js';
import { memberWithToken } from '../helpers/fixtures.js';

let app: TestApp;
let mcp: Client;
let api: Trpc;
let lineIds: string[];
let otherProjectLine: string;

openTestAppWithMcp((opened) => ({ app, owner: api, mcp } = opened));
beforeAll(async () => {
  lineIds = (await api.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 10 })).items.map(
    (l) => l.id,
  );
  const other = await http(app.url, 'POST', '/v1/projects', {
    token: app.token,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { name: 'Other job' },
  });
  const created = await http(app.url, 'POST', `/v1/projects/${other.body.id}/items`, {
    token: app.token,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { sectionId: other.body.sections[0].id, heading: 'Elsewhere' },
  });
  otherProjectLine = created.body.id;
});

/** An MCP tool's answer as compared with REST's body: the result without its etag (REST sends that as a header), or the code. */
async function viaMcp(
  name: string,
  args: Record<string, unknown>,
  client = mcp,
): Promise<{ ok: true; value: any } | { ok: false; code?: string }> {
  const out = await callTool(client, name, args);
  if (out.error) return { ok: false, code: out.code };
  const { etag: _etag, ...value } = name === 'call_action' ? out.result.result : out.result;
  return { ok: true, value };
}

describe('reads give the same record on every surface', () => {
  it('one line: REST get_line, tRPC get_schedule_line, MCP get_line and call_action', async () => {
    const id = lineIds[0]!;
    const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${id}`, { token: app.token });
    const viaTrpc = await api.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: id });
    const tool = await viaMcp('get_line', { projectId: app.projectId, itemId: id });
    const called = await viaMcp('call_action', {
      name: 'get_schedule_line',
      arguments: { input: { projectId: app.projectId, lineId: id } },
    });
    expect(rest.status).toBe(200);
    expect(viaTrpc).toEqual(rest.body);
    expect(tool).toEqual({ ok: true, value: rest.body });
    expect(called).toEqual({ ok: true, value: rest.body });
  });

  it('a project with its sections: REST get_project, tRPC get_studio_project, MCP get_project', async () => {
    const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}`, { token: app.token });
    const viaTrpc = await api.projects.getStudioProject.query({ projectId: app.projectId });
    const tool = await viaMcp('get_project', { projectId: app.projectId });
    expect(viaTrpc).toEqual(rest.body);
    expect(tool).toEqual({ ok: true, value: rest.body });
  });

  it('the project list: REST list_projects, tRPC list_studio_projects, MCP list_projects', async () => {
    const rest = await http(app.url, 'GET', '/v1/projects', { token: app.token });
    const viaTrpc = await api.projects.listStudioProjects.query({});
    const tool = await viaMcp('list_projects', {});
    expect(rest.body.items.length).toBeGreaterThanOrEqual(2);
    expect(viaTrpc).toEqual(rest.body);
    expect(tool).toEqual({ ok: true, value: rest.body });
  });
});

describe('refusals carry the same code on every surface', () => {
  it('NOT_FOUND: a line of another project named under this one', async () => {
    const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${otherProjectLine}`, {
      token: app.token,
    });
    expect(rest.status).toBe(404);
    expect(rest.body.code).toBe('NOT_FOUND');
    expect(
      await codeOf(api.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: otherProjectLine })),
    ).toBe('NOT_FOUND');
    expect(await viaMcp('get_line', { projectId: app.projectId, itemId: otherProjectLine })).toEqual({
      ok: false,
      code: 'NOT_FOUND',
    });
  });

  it('VERSION_CONFLICT: a stale version, and nothing changes', async () => {
    const id = lineIds[1]!;
    const before = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${id}`, { token: app.token });
    const stale = before.body.version + 5;
    const rest = await http(app.url, 'PATCH', `/v1/projects/${app.projectId}/items/${id}`, {
      token: app.token,
      headers: { 'if-match': `"${stale}"` },
      body: { finish: 'Rest' },
    });
    expect(rest.status).toBe(409);
    expect(rest.body.code).toBe('VERSION_CONFLICT');
    expect(
      await codeOf(
        api.schedule.updateScheduleLine.mutate({
          projectId: app.projectId,
          lineId: id,
          expectedVersion: stale,
          patch: { finish: 'Trpc' },
        }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(
      await viaMcp('update_line', { projectId: app.projectId, itemId: id, ifMatch: `"${stale}"`, finish: 'Mcp' }),
    ).toEqual({ ok: false, code: 'VERSION_CONFLICT' });
    const after = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${id}`, { token: app.token });
    expect(after.body).toEqual(before.body);
  });

  it('VALIDATION_FAILED: money sent as a JSON number', async () => {
    const id = lineIds[2]!;
    const version = (await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${id}`, { token: app.token })).body
      .version;
    const bad = { state: 'set', amount4: 12.5 };
    const rest = await http(app.url, 'PATCH', `/v1/projects/${app.projectId}/items/${id}`, {
      token: app.token,
      headers: { 'if-match': `"${version}"` },
      body: { retailPrice: bad },
    });
    expect(rest.body.code).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(
        api.schedule.updateScheduleLine.mutate({
          projectId: app.projectId,
          lineId: id,
          expectedVersion: version,
          patch: { retailPrice: bad as never },
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(
      await viaMcp('update_line', { projectId: app.projectId, itemId: id, ifMatch: `"${version}"`, retailPrice: bad }),
    ).toEqual({ ok: false, code: 'VALIDATION_FAILED' });
  });

  it('FORBIDDEN: a viewer changing a line', async () => {
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    const id = lineIds[3]!;
    const rest = await http(app.url, 'PATCH', `/v1/projects/${app.projectId}/items/${id}`, {
      token: viewer.token,
      headers: { 'if-match': '"1"' },
      body: { finish: 'x' },
    });
    expect(rest.status).toBe(403);
    expect(rest.body.code).toBe('FORBIDDEN');
    expect(
      await codeOf(
        trpc(app.url, viewer.token).schedule.updateScheduleLine.mutate({
          projectId: app.projectId,
          lineId: id,
          expectedVersion: 1,
          patch: { finish: 'x' },
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await viaMcp(
        'update_line',
        { projectId: app.projectId, itemId: id, ifMatch: '"1"', finish: 'x' },
        await app.mcp(viewer.token),
      ),
    ).toEqual({ ok: false, code: 'FORBIDDEN' });
  });

  it('UNAUTHENTICATED: a token that was never issued', async () => {
    const rest = await http(app.url, 'GET', '/v1/projects', { token: 'studio_not-a-real-token' });
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe('UNAUTHENTICATED');
    expect(await codeOf(trpc(app.url, 'studio_not-a-real-token').projects.listStudioProjects.query({}))).toBe(
      'UNAUTHENTICATED',
    );
    expect(await viaMcp('list_projects', {}, await app.mcp('studio_not-a-real-token'))).toEqual({
      ok: false,
      code: 'UNAUTHENTICATED',
    });
  });

  it('ALREADY_ARCHIVED: archiving a line twice, whichever surface archived it first', async () => {
    const id = lineIds[4]!;
    const line = `/v1/projects/${app.projectId}/items/${id}`;
    const first = await http(app.url, 'POST', `${line}/archival`, {
      token: app.token,
      headers: { 'if-match': await currentEtag(app.url, app.token, line) },
    });
    expect(first.status).toBe(200);
    expect(first.body.archived_at).not.toBeNull();
    const version = first.body.version;
    const etag = first.headers.get('etag')!;
    const rest = await http(app.url, 'POST', `${line}/archival`, {
      token: app.token,
      headers: { 'if-match': etag },
    });
    expect(rest.body.code).toBe('ALREADY_ARCHIVED');
    expect(
      await codeOf(
        api.schedule.archiveScheduleLine.mutate({ projectId: app.projectId, lineId: id, expectedVersion: version }),
      ),
    ).toBe('ALREADY_ARCHIVED');
    expect(
      await viaMcp('call_action', {
        name: 'archive_line',
        arguments: { projectId: app.projectId, itemId: id, ifMatch: etag },
      }),
    ).toEqual({ ok: false, code: 'ALREADY_ARCHIVED' });
  });
});

describe('procedure API statuses follow the catalog', () => {
  it('a missing expectedVersion answers 428 with serviceCode PRECONDITION_REQUIRED, as data.httpStatus says', async () => {
    const res = await fetch(`${app.url}/api/trpc/schedule.updateScheduleLine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: app.projectId, lineId: lineIds[5], patch: { finish: 'Oak' } }),
    });
    const body = (await res.json()) as { error: { data: { serviceCode: string; httpStatus: number } } };
    expect(res.status).toBe(428);
    expect(body.error.data).toMatchObject({ serviceCode: 'PRECONDITION_REQUIRED', httpStatus: 428 });
  });
});
