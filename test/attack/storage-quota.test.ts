/**
 * A studio's storage figure and quota (issue 29, item 6). get_studio_usage says the bytes and files the studio's
 * records keep, each distinct file once: it grows with an upload, not with the same file again, and shrinks when the
 * last photograph naming a file is removed. Past STUDIO_STORAGE_QUOTA_BYTES, an upload (over /v1, tRPC, MCP and the
 * import file route), a render and a package are refused 413 STORAGE_QUOTA_EXCEEDED before any work, leaving no file,
 * record or operation behind. Before the fix there was neither figure nor quota, and every refused call here succeeded.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAction, callTool, refusal } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { keptOriginals } from '../helpers/blobs.js';
import { fromOutside } from '../helpers/fixtures.js';
import { noisyPng } from '../helpers/images.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { photographsPath, postFile } from '../helpers/uploads.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let lines: string[];
/** A photograph of about 30 KB, and another. */
let photo: Buffer;
let other: Buffer;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  const res = await fetch(`${app.url}/v1/projects/${app.projectId}/items?limit=3`, {
    headers: { authorization: `Bearer ${app.token}` },
  });
  lines = ((await res.json()) as { items: Array<{ id: string }> }).items.map((i) => i.id);
  photo = await noisyPng(100, 100);
  other = await noisyPng(101, 100);
});

const storage = async () => (await owner.studio.getStudioUsage.query({})).storage;

/** A photograph as the upload answers it. */
type Added = { id: string; lineVersion: number; sha256: string };

/** POST /v1/…/photographs with the file as the body. */
const upload = (bytes: Buffer, lineId = lines[0]!) =>
  postFile(app, photographsPath(app.projectId, lineId, 'p.png'), bytes, 'image/png');

const remove = (lineId: string, photographId: string, expectedVersion: number) =>
  owner.photographs.removeLinePhotograph.mutate({ projectId: app.projectId, lineId, photographId, expectedVersion });

/** What a refusal must leave as it was: the kept files, the photograph records, the operations. */
const written = async () => ({
  originals: [...keptOriginals(app).sizes.keys()].sort(),
  rows: await fromOutside(app.database, async (db) => ({
    photographs: (await db.selectFrom('line_photographs').select('id').execute()).length,
    imports: (await db.selectFrom('imports').select('id').execute()).length,
    operations: (await db.selectFrom('operations').select('id').execute()).length,
  })),
});

describe("a studio's storage figure", () => {
  it('moves with uploads and removals, counting each distinct file once', async () => {
    const start = await storage();
    expect(start.quotaBytes).toBeNull();
    const first = (await (await upload(photo, lines[0])).json()) as Added;
    expect(await storage()).toMatchObject({ bytes: start.bytes + photo.length, files: start.files + 1 });
    // The same file on another line is not more storage.
    const again = (await (await upload(photo, lines[1])).json()) as Added;
    expect((await storage()).bytes).toBe(start.bytes + photo.length);
    await remove(lines[0]!, first.id, first.lineVersion);
    expect((await storage()).bytes).toBe(start.bytes + photo.length);
    await remove(lines[1]!, again.id, again.lineVersion);
    expect(await storage()).toMatchObject({ bytes: start.bytes, files: start.files });
    expect(Number.isInteger(start.bytes)).toBe(true);
  });
});

describe('the storage quota', () => {
  it('refuses uploads over /v1, tRPC, MCP and the file route with 413 and its code, writing nothing', async () => {
    const { bytes } = await storage();
    // Room for a few bytes, not for a photograph.
    app.rt.config.storageQuotaBytes = bytes + 1000;
    try {
      const before = await written();
      const rest = await upload(photo);
      expect(rest.status).toBe(413);
      expect(await rest.json()).toMatchObject({ status: 413, code: 'STORAGE_QUOTA_EXCEEDED' });
      const base64 = other.toString('base64');
      const input = { projectId: app.projectId, lineId: lines[0]!, data: base64, mediaType: 'image/png' };
      expect(
        await refusal(owner.photographs.addLinePhotograph.mutate({ ...input, commandKey: crypto.randomUUID() })),
      ).toEqual({ code: 'STORAGE_QUOTA_EXCEEDED', status: 413 });
      const viaMcp = await callAction(mcp, 'add_line_photograph', { ...input, commandKey: crypto.randomUUID() });
      expect(viaMcp.code).toBe('STORAGE_QUOTA_EXCEEDED');
      expect(viaMcp.error?.message).toMatch(
        /of its 1000 bytes quota, and this file is 30 KiB more, so nothing was kept/,
      );
      const sheet = `Item,Qty\n${'Pendant light,2\n'.repeat(200)}`;
      const imported = await postFile(
        app,
        `/files/projects/${app.projectId}/imports?filename=lights.csv`,
        sheet,
        'text/csv',
      );
      expect(imported.status).toBe(413);
      expect(((await imported.json()) as { code: string }).code).toBe('STORAGE_QUOTA_EXCEEDED');
      expect(await written()).toEqual(before);
      expect((await storage()).quotaBytes).toBe(bytes + 1000);
      // A file the studio keeps already adds nothing: the same photograph again goes through.
      app.rt.config.storageQuotaBytes = 0;
      const kept = (await (await upload(photo, lines[2])).json()) as Added;
      app.rt.config.storageQuotaBytes = (await storage()).bytes;
      expect((await upload(photo, lines[0])).status).toBe(201);
      const retried = await owner.photographs.addLinePhotograph.mutate({
        ...input,
        data: photo.toString('base64'),
        commandKey: crypto.randomUUID(),
      });
      expect(retried.sha256).toBe(kept.sha256);
    } finally {
      app.rt.config.storageQuotaBytes = 0;
    }
  });

  it('refuses a render and a package once the studio is at its quota, and lets them through below it', async () => {
    expect((await upload(other)).status).toBe(201);
    const { bytes } = await storage();
    app.rt.config.storageQuotaBytes = bytes;
    try {
      const before = await written();
      for (const name of ['create_project_package', 'generate_document']) {
        const out = await callTool(mcp, 'call_action', {
          name,
          arguments: { projectId: app.projectId, commandKey: crypto.randomUUID() },
        });
        expect(out.code).toBe('STORAGE_QUOTA_EXCEEDED');
      }
      expect(await written()).toEqual(before);
      app.rt.config.storageQuotaBytes = bytes + 1;
      const started = await callTool(mcp, 'call_action', {
        name: 'create_project_package',
        arguments: { projectId: app.projectId, commandKey: crypto.randomUUID() },
      });
      expect(started.result?.result.id).toBeTypeOf('string');
    } finally {
      app.rt.config.storageQuotaBytes = 0;
    }
  });
});
