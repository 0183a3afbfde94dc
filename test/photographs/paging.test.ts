/**
 * A line's photographs page like every collection (cursor, limit, sort; display order by default) through tRPC, MCP
 * and /v1, and every page carries the line's one ETag, so reorder and remove take it as If-Match from any page.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { allPages, callTool, codeOf } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { solid } from '../helpers/images.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let lineId: string;
let ids: string[];

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  lineId = (await owner.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 1 })).items[0]!.id;
  ids = [];
  for (const [colour, filename] of [
    ['#aa0000', 'c-red.png'],
    ['#00aa00', 'a-green.png'],
    ['#0000aa', 'b-blue.png'],
  ] as const) {
    const added = await owner.photographs.addLinePhotograph.mutate({
      ...at(),
      data: (await solid('png', 40, 30, colour)).toString('base64'),
      mediaType: 'image/png',
      filename,
      commandKey: crypto.randomUUID(),
    });
    ids.push(added.id);
  }
  // The cover is the last one: page 1 must not mark its own first item as the cover.
  await owner.photographs.setLineCoverPhotograph.mutate({ ...at(), photographId: ids[2]! });
});

const at = () => ({ projectId: app.projectId, lineId });

describe('a line’s photographs, paged', () => {
  it('tRPC: display order by default, pages of one walk all three, sorts by filename, the cover on whatever page', async () => {
    const whole = await owner.photographs.listLinePhotographs.query(at());
    expect(whole.items.map((p) => p.id)).toEqual(ids);
    expect(whole.nextCursor).toBeNull();
    const first = await owner.photographs.listLinePhotographs.query({ ...at(), limit: 1 });
    expect(first.items.map((p) => p.cover)).toEqual([false]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const walked = await allPages((cursor) =>
      owner.photographs.listLinePhotographs.query({ ...at(), limit: 1, cursor }),
    );
    expect(walked.map((p) => p.id)).toEqual(ids);
    expect(walked.map((p) => p.cover)).toEqual([false, false, true]);
    const byName = await owner.photographs.listLinePhotographs.query({ ...at(), sort: '-filename' });
    expect(byName.items.map((p) => p.filename)).toEqual(['c-red.png', 'b-blue.png', 'a-green.png']);
    expect(await codeOf(owner.photographs.listLinePhotographs.query({ ...at(), sort: 'colour' as never }))).toBe(
      'VALIDATION_FAILED',
    );
    // A cursor is tied to its sort.
    expect(
      await codeOf(
        owner.photographs.listLinePhotographs.query({ ...at(), sort: 'filename', cursor: first.nextCursor! }),
      ),
    ).toBe('VALIDATION_FAILED');
  });

  it('MCP: each page carries the line’s one etag, and a reorder takes it from the second page', async () => {
    const args = { projectId: app.projectId, itemId: lineId };
    const whole = (await mcp.callTool({ name: 'list_photographs', arguments: args })).structuredContent as any;
    const second = (
      await mcp.callTool({
        name: 'list_photographs',
        arguments: {
          ...args,
          limit: 1,
          cursor: (await owner.photographs.listLinePhotographs.query({ ...at(), limit: 1 })).nextCursor,
        },
      })
    ).structuredContent as any;
    expect(second.items).toHaveLength(1);
    expect(second.items[0].id).toBe(ids[1]);
    expect(second.etag).toBe(whole.etag);
    const reordered = (
      await callTool(mcp, 'call_action', {
        name: 'reorder_photographs',
        arguments: { ...args, ifMatch: second.etag, order: [...ids].reverse() },
      })
    ).result;
    expect(reordered.result.items.map((p: { id: string }) => p.id)).toEqual([...ids].reverse());
    // The write answers the tag the read now answers, on any page.
    const after = (await mcp.callTool({ name: 'list_photographs', arguments: { ...args, limit: 2 } }))
      .structuredContent as any;
    expect(reordered.result.etag).toBe(after.etag);
    expect(after.etag).not.toBe(whole.etag);
    ids.reverse();
  });

  it('/v1: ?limit and ?sort page the list; the ETag is the same on every page and a stale one still conflicts', async () => {
    const base = `${app.url}/v1/projects/${app.projectId}/items/${lineId}`;
    const headers = { authorization: `Bearer ${app.token}` };
    const whole = await fetch(`${base}/photographs`, { headers });
    const page = await fetch(`${base}/photographs?limit=1&sort=createdAt`, { headers });
    expect(page.status).toBe(200);
    const body = (await page.json()) as { items: { id: string }[]; nextCursor: string | null };
    expect(body.items).toHaveLength(1);
    expect(body.nextCursor).toEqual(expect.any(String));
    const etag = page.headers.get('etag')!;
    expect(etag).toBe(whole.headers.get('etag'));
    const put = await fetch(`${base}/photograph-order`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ order: [...ids].reverse() }),
    });
    expect(put.status).toBe(200);
    const stale = await fetch(`${base}/photograph-order`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ order: ids }),
    });
    expect(stale.status).toBe(409);
    // The current version with a forged digest is not the line's tag.
    const forged = put.headers.get('etag')!.replace(/-[0-9a-f]{8}"$/, '-00000000"');
    const bad = await fetch(`${base}/photograph-order`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json', 'if-match': forged },
      body: JSON.stringify({ order: ids }),
    });
    expect(bad.status).toBe(409);
  });
});
