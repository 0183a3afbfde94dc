/**
 * If-Match compares the whole entity-tag, strongly (RFC 9110): only the ETag the record's read answers now, for this
 * caller, lets a write through, over /v1 and MCP alike. Another record's ETag at the same version, a forged digest and
 * a tag read before the body changed without the version moving are conflicts (409) and change nothing; a tag without
 * its quotes is malformed (400). Procedures keep comparing expectedVersion as a version.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, type Trpc } from '../helpers/clients.js';
import { callTool } from '../helpers/calls.js';

let app: TestApp;
let mcp: Client;
let api: Trpc;
let lineA: string;
let lineC: string;

const itemPath = (id: string) => `/v1/projects/${app.projectId}/items/${id}`;
const read = (id: string) => http(app.url, 'GET', itemPath(id), { token: app.token });
const patch = (id: string, ifMatch: string, body: Record<string, unknown>) =>
  http(app.url, 'PATCH', itemPath(id), {
    token: app.token,
    headers: { 'if-match': ifMatch, 'content-type': 'application/merge-patch+json' },
    body,
  });

openTestAppWithMcp((opened) => ({ app, owner: api, mcp } = opened));
beforeAll(async () => {
  const lines = (await api.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 10 })).items;
  // Two lines at the same version, so that only the tag's digest tells them apart.
  const atOne = lines.filter((l) => l.version === lines[0]!.version);
  expect(atOne.length).toBeGreaterThanOrEqual(2);
  lineA = atOne[0]!.id;
  lineC = atOne[1]!.id;
});

describe('If-Match over /v1', () => {
  it("line A's ETag does not guard a write to line C at the same version: 409, and C is unchanged", async () => {
    const a = await read(lineA);
    const c = await read(lineC);
    expect(a.body.version).toBe(c.body.version);
    expect(a.headers.get('etag')).not.toBe(c.headers.get('etag'));
    const out = await patch(lineC, a.headers.get('etag')!, { finish: 'Wrong line' });
    expect(out.status).toBe(409);
    expect(out.body.code).toBe('VERSION_CONFLICT');
    expect((await read(lineC)).body).toEqual(c.body);
  });

  it('a forged digest with the right version is a conflict; the real ETag then writes', async () => {
    const c = await read(lineC);
    const forged = `"${c.body.version}-deadbeef"`;
    expect(forged).not.toBe(c.headers.get('etag'));
    const out = await patch(lineC, forged, { finish: 'Forged' });
    expect(out.status).toBe(409);
    expect(out.body.code).toBe('VERSION_CONFLICT');
    expect(out.body.detail).toMatch(/read it again/);
    const ok = await patch(lineC, c.headers.get('etag')!, { finish: 'Real' });
    expect(ok.status).toBe(200);
    expect(ok.body.finish).toBe('Real');
    // The answer's ETag is the read's: the next write can send it as it is.
    expect(ok.headers.get('etag')).toBe((await read(lineC)).headers.get('etag'));
  });

  it('an ETag without its quotes, or a bare version, is malformed (400) and changes nothing', async () => {
    const c = await read(lineC);
    const unquoted = c.headers.get('etag')!.replaceAll('"', '');
    for (const sent of [unquoted, String(c.body.version)]) {
      const out = await patch(lineC, sent, { finish: 'Unquoted' });
      expect(out.status, sent).toBe(400);
      expect(out.body.code).toBe('VALIDATION_FAILED');
      expect(out.body.detail).toMatch(/quotes included/);
    }
    expect((await read(lineC)).body).toEqual(c.body);
  });

  it('a quoted version alone was never an ETag of this record: 409', async () => {
    const c = await read(lineC);
    const out = await patch(lineC, `"${c.body.version}"`, { finish: 'Version only' });
    expect(out.status).toBe(409);
    expect(out.body.code).toBe('VERSION_CONFLICT');
  });

  it('a list of tags passes when one of them is current (RFC 9110 If-Match list)', async () => {
    const a = await read(lineA);
    const c = await read(lineC);
    const out = await patch(lineC, `${a.headers.get('etag')}, ${c.headers.get('etag')}`, { finish: 'Listed' });
    expect(out.status).toBe(200);
    expect(out.body.finish).toBe('Listed');
  });

  it("a tag read before the line's body changed without its version moving is stale", async () => {
    const c = await read(lineC);
    const project = await api.projects.getStudioProject.query({ projectId: app.projectId });
    // The project's default markup reprices the line's derived client price; the line's own version stays.
    const markup = project.defaultMarkup?.ratio4 === '4000' ? '4500' : '4000';
    await api.projects.updateProjectDetails.mutate({
      projectId: app.projectId,
      expectedVersion: project.version,
      defaultMarkup: { ratio4: markup },
    });
    const now = await read(lineC);
    expect(now.body.version).toBe(c.body.version);
    expect(now.headers.get('etag')).not.toBe(c.headers.get('etag'));
    const out = await patch(lineC, c.headers.get('etag')!, { finish: 'Stale body' });
    expect(out.status).toBe(409);
    expect(out.body.code).toBe('VERSION_CONFLICT');
  });
});

describe('ifMatch over MCP', () => {
  it("another line's etag, a forged one and one without quotes are refused; the line's own etag writes", async () => {
    const a = (await callTool(mcp, 'get_line', { projectId: app.projectId, itemId: lineA })).result;
    const c = (await callTool(mcp, 'get_line', { projectId: app.projectId, itemId: lineC })).result;
    const attempt = (ifMatch: string) =>
      callTool(mcp, 'update_line', { projectId: app.projectId, itemId: lineC, ifMatch, finish: 'Via MCP' });
    expect((await attempt(a.etag)).code).toBe('VERSION_CONFLICT');
    expect((await attempt(`"${c.version}-0badf00d"`)).code).toBe('VERSION_CONFLICT');
    expect((await attempt(c.etag.replaceAll('"', ''))).code).toBe('VALIDATION_FAILED');
    const ok = await attempt(c.etag);
    expect(ok.error).toBeFalsy();
    expect(ok.result.finish).toBe('Via MCP');
  });

  it('tRPC keeps expectedVersion a version', async () => {
    const c = await api.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: lineC });
    const out = await api.schedule.updateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: lineC,
      expectedVersion: c.version,
      patch: { finish: 'Via tRPC' },
    });
    expect(out.finish).toBe('Via tRPC');
  });
});
