/**
 * The photographs domain (7 procedures) through the typed tRPC client and MCP call_action, and its /v1 twins through
 * plain HTTP: display order, cover, rotation (a new derivative, the original untouched), removal; every change is a
 * change to the line (its version moves, stale versions are refused), audited, refused on archived lines and for
 * roles without projects:write, and a photograph is reached only through its own line.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAction, codeOf, refusal } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { trpc } from '../helpers/clients.js';
import { demoMembers, type Member } from '../helpers/fixtures.js';
import { imageFacts, sidewaysCameraJpeg, solid } from '../helpers/images.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';

/** A response's JSON body, loosely typed as tests read it. */
const json = (res: Response): Promise<any> => res.json();

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let viewer: Member;
let lineIds: string[];

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  ({ viewer } = await demoMembers(app, ['viewer']));
  const lines = await owner.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 10 });
  lineIds = lines.items.map((l) => l.id);
});

const at = (lineId: string) => ({ projectId: app.projectId, lineId });
const add = async (lineId: string, colour: string, filename = `${colour.slice(1)}.png`) =>
  owner.photographs.addLinePhotograph.mutate({
    ...at(lineId),
    data: (await solid('png', 90, 60, colour)).toString('base64'),
    mediaType: 'image/png',
    filename,
    commandKey: crypto.randomUUID(),
  });
const lineVersion = async (lineId: string) => (await owner.schedule.getScheduleLine.query(at(lineId))).version;

describe('adding, listing and reading', () => {
  it('adds photographs last in order, bumping the line version; the first is the cover; MCP answers the same', async () => {
    const lineId = lineIds[0]!;
    const v0 = await lineVersion(lineId);
    const a = await add(lineId, '#aa0000');
    const b = await add(lineId, '#00aa00');
    expect([a.position, b.position]).toEqual([1, 2]);
    expect([a.cover, b.cover]).toEqual([true, false]);
    expect(b.lineVersion).toBe(v0 + 2);
    expect(await lineVersion(lineId)).toBe(v0 + 2);
    const list = await owner.photographs.listLinePhotographs.query(at(lineId));
    expect(list).toMatchObject({ lineId, version: v0 + 2 });
    expect(list.items.map((p) => p.id)).toEqual([a.id, b.id]);
    expect((await callAction(mcp, 'list_line_photographs', at(lineId))).result).toEqual(list);
    const one = await owner.photographs.getLinePhotograph.query({ ...at(lineId), photographId: b.id });
    expect(one).toEqual(list.items[1]);
    // Over MCP the procedure twin answers the picture too.
    const res = await mcp.callTool({
      name: 'call_action',
      arguments: { name: 'get_line_photograph', arguments: { input: { ...at(lineId), photographId: b.id } } },
    });
    expect((res.content as Array<{ type: string }>)[0]!.type).toBe('image');
  });

  it('a keyed add retried answers the same photograph; a photograph is reached only through its own line', async () => {
    const lineId = lineIds[1]!;
    const input = {
      ...at(lineId),
      data: (await solid('png', 40, 40, '#123456')).toString('base64'),
      mediaType: 'image/png',
      commandKey: crypto.randomUUID(),
    };
    const first = await owner.photographs.addLinePhotograph.mutate(input);
    expect(await owner.photographs.addLinePhotograph.mutate(input)).toEqual(first);
    expect((await owner.photographs.listLinePhotographs.query(at(lineId))).items).toHaveLength(1);
    expect(
      await codeOf(owner.photographs.getLinePhotograph.query({ ...at(lineIds[0]!), photographId: first.id })),
    ).toBe('NOT_FOUND');
    expect(await codeOf(owner.photographs.getLinePhotograph.query({ ...at(lineIds[1]!), photographId: 'nope' }))).toBe(
      'NOT_FOUND',
    );
  });
});

describe('changing the photographs of a line', () => {
  it('reorders with the line version; a stale version is refused; the same order changes nothing', async () => {
    const lineId = lineIds[2]!;
    const [a, b, c] = [await add(lineId, '#111111'), await add(lineId, '#222222'), await add(lineId, '#333333')];
    const version = c.lineVersion;
    const reordered = await owner.photographs.reorderLinePhotographs.mutate({
      ...at(lineId),
      order: [c.id, a.id, b.id],
      expectedVersion: version,
    });
    expect(reordered.items.map((p) => [p.id, p.position])).toEqual([
      [c.id, 1],
      [a.id, 2],
      [b.id, 3],
    ]);
    expect(reordered.version).toBe(version + 1);
    // Cover unmarked: the first is the cover.
    expect(reordered.items.map((p) => p.cover)).toEqual([true, false, false]);
    expect(
      await refusal(
        owner.photographs.reorderLinePhotographs.mutate({
          ...at(lineId),
          order: [a.id, b.id, c.id],
          expectedVersion: version,
        }),
      ),
    ).toEqual({ code: 'VERSION_CONFLICT', status: 409 });
    expect(
      await codeOf(
        owner.photographs.reorderLinePhotographs.mutate({
          ...at(lineId),
          order: [a.id, b.id],
          expectedVersion: version + 1,
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    const same = await owner.photographs.reorderLinePhotographs.mutate({
      ...at(lineId),
      order: [c.id, a.id, b.id],
      expectedVersion: version + 1,
    });
    expect(same.version).toBe(version + 1);
  });

  it('marks a cover without moving it, rotates into a new derivative (original untouched), removes and closes up', async () => {
    const lineId = lineIds[3]!;
    const camera = await owner.photographs.addLinePhotograph.mutate({
      ...at(lineId),
      data: (await sidewaysCameraJpeg()).toString('base64'),
      mediaType: 'image/jpeg',
      filename: 'camera.jpg',
      commandKey: crypto.randomUUID(),
    });
    const second = await add(lineId, '#444444');
    const covered = await owner.photographs.setLineCoverPhotograph.mutate({ ...at(lineId), photographId: second.id });
    expect(covered.items.map((p) => [p.id, p.position, p.cover])).toEqual([
      [camera.id, 1, false],
      [second.id, 2, true],
    ]);
    const again = await owner.photographs.setLineCoverPhotograph.mutate({ ...at(lineId), photographId: second.id });
    expect(again.version).toBe(covered.version);

    const turned = await owner.photographs.rotateLinePhotograph.mutate({
      ...at(lineId),
      photographId: camera.id,
      rotation: 90,
    });
    const after = turned.items.find((p) => p.id === camera.id)!;
    expect(after).toMatchObject({ rotation: 90, width: 400, height: 600, sha256: camera.sha256 });
    expect(after.variants.display).toMatchObject({ width: 600, height: 400 });
    expect(after.variants.display.url).not.toBe(camera.variants.display.url);
    const headers = { authorization: `Bearer ${app.token}` };
    const display = Buffer.from(
      await (await fetch(`${app.url}${after.variants.display.url}`, { headers })).arrayBuffer(),
    );
    expect(await imageFacts(display)).toMatchObject({ width: 600, height: 400 });
    const original = Buffer.from(
      await (await fetch(`${app.url}${after.variants.original.url}`, { headers })).arrayBuffer(),
    );
    expect(original.length).toBe(camera.byteSize);

    const removed = await owner.photographs.removeLinePhotograph.mutate({
      ...at(lineId),
      photographId: camera.id,
      expectedVersion: turned.version,
    });
    expect(removed.items.map((p) => [p.id, p.position])).toEqual([[second.id, 1]]);
    expect(await codeOf(owner.photographs.getLinePhotograph.query({ ...at(lineId), photographId: camera.id }))).toBe(
      'NOT_FOUND',
    );
    const events = await owner.audit.listProjectAuditEvents.query({ projectId: app.projectId, limit: 20 });
    const summaries = events.items.map((e) => e.summary);
    expect(summaries.some((s) => s.startsWith('Removed photograph camera.jpg'))).toBe(true);
    expect(summaries.some((s) => s.includes('to 90°'))).toBe(true);
  });

  it('the /v1 twins: reorder with PUT and remove with DELETE take the line ETag from list_photographs', async () => {
    const lineId = lineIds[4]!;
    const [a, b] = [await add(lineId, '#555555'), await add(lineId, '#666666')];
    const base = `${app.url}/v1/projects/${app.projectId}/items/${lineId}`;
    const headers = { authorization: `Bearer ${app.token}` };
    const list = await fetch(`${base}/photographs`, { headers });
    const etag = list.headers.get('etag')!;
    expect(etag).toMatch(new RegExp(`^"${b.lineVersion}-`));
    const put = await fetch(`${base}/photograph-order`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ order: [b.id, a.id] }),
    });
    expect(put.status).toBe(200);
    const stale = await fetch(`${base}/photographs/${a.id}`, {
      method: 'DELETE',
      headers: { ...headers, 'if-match': etag },
    });
    expect([stale.status, (await json(stale)).code]).toEqual([409, 'VERSION_CONFLICT']);
    const missing = await fetch(`${base}/photographs/${a.id}`, { method: 'DELETE', headers });
    expect(missing.status).toBe(428);
    const del = await fetch(`${base}/photographs/${a.id}`, {
      method: 'DELETE',
      headers: { ...headers, 'if-match': put.headers.get('etag')! },
    });
    expect(del.status).toBe(200);
    expect((await json(del)).items.map((p: { id: string }) => p.id)).toEqual([b.id]);
  });
});

describe('who may, and when', () => {
  it('a viewer reads but cannot add; an archived line keeps its photographs but refuses changes', async () => {
    const lineId = lineIds[5]!;
    const photo = await add(lineId, '#777777');
    const asViewer = trpc(app.url, viewer.token);
    expect((await asViewer.photographs.listLinePhotographs.query(at(lineId))).items).toHaveLength(1);
    expect(
      await codeOf(
        asViewer.photographs.addLinePhotograph.mutate({
          ...at(lineId),
          data: (await solid('png')).toString('base64'),
          mediaType: 'image/png',
          commandKey: crypto.randomUUID(),
        }),
      ),
    ).toBe('FORBIDDEN');
    const archived = await owner.schedule.archiveScheduleLine.mutate({
      ...at(lineId),
      expectedVersion: await lineVersion(lineId),
    });
    expect((await owner.photographs.listLinePhotographs.query(at(lineId))).items).toHaveLength(1);
    expect(
      await codeOf(owner.photographs.setLineCoverPhotograph.mutate({ ...at(lineId), photographId: photo.id })),
    ).toBe('ARCHIVED');
    expect(await codeOf(add(lineId, '#888888'))).toBe('ARCHIVED');
    expect(archived.version).toBeGreaterThan(photo.lineVersion);
  });
});
