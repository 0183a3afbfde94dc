/**
 * The blob sweep (issue 29, item 6): nothing removed files no record names, so staged uploads refused after checking,
 * canceled imports, renders never recorded and a turned photograph's earlier sizes stayed for ever. sweepBlobs (what
 * `studio sweep` and the workers' timer run) removes them once older than the grace period, and keeps every file a
 * record names, a photograph removed since a version froze it, a package's entries, and a file kept a moment ago for
 * an upload whose record is not written yet. Before the fix there was no sweep: every orphan here stayed.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/core/errors.js';
import { sweepBlobs } from '../../src/domain/storage/sweep.js';
import type { DiskBlobStore } from '../../src/files/blob-store.js';
import { startSweeper } from '../../src/jobs/sweeper.js';
import { callTool, settledOperation } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { ageBlobStore, keptDerived, keptOriginals, sha256 } from '../helpers/blobs.js';
import { noisyPng } from '../helpers/images.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { photographsPath, postFile } from '../helpers/uploads.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let lines: string[];

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  const res = await fetch(`${app.url}/v1/projects/${app.projectId}/items?limit=3`, {
    headers: { authorization: `Bearer ${app.token}` },
  });
  lines = ((await res.json()) as { items: Array<{ id: string }> }).items.map((i) => i.id);
});

type Added = { id: string; lineVersion: number; sha256: string };
const post = async (path: string, type: string, body: Buffer | string) => {
  const res = await postFile(app, path, body, type);
  expect(res.status).toBe(201);
  return res.json() as Promise<any>;
};
const addPhotograph = async (lineId: string, bytes: Buffer): Promise<Added> =>
  post(photographsPath(app.projectId, lineId, 'p.png'), 'image/png', bytes);
const removePhotograph = (lineId: string, p: Added) =>
  owner.photographs.removeLinePhotograph.mutate({
    projectId: app.projectId,
    lineId,
    photographId: p.id,
    expectedVersion: p.lineVersion,
  });

/** A file kept in the blob store with no record naming it, as a render whose commit never came leaves one. */
async function keepUnnamed(): Promise<string> {
  const staged = await app.rt.files.stage(
    Readable.from([randomBytes(4096)]),
    1 << 20,
    () => new ServiceError('PAYLOAD_TOO_LARGE'),
  );
  await app.rt.files.keep(staged);
  return staged.sha256;
}

describe('the sweep', () => {
  it('removes files nothing names and keeps every named one and one mid-upload', async () => {
    const kept = await addPhotograph(lines[0]!, await noisyPng(120, 90));
    const frozen = await addPhotograph(lines[1]!, await noisyPng(121, 90));
    await owner.clientDocument.mintClientDocument.mutate({ projectId: app.projectId, commandKey: crypto.randomUUID() });
    await removePhotograph(lines[1]!, frozen);
    const dropped = await addPhotograph(lines[2]!, await noisyPng(122, 90));
    await removePhotograph(lines[2]!, dropped);
    await owner.photographs.rotateLinePhotograph.mutate({
      projectId: app.projectId,
      lineId: lines[0]!,
      photographId: kept.id,
      rotation: 90,
    });
    const started = await callTool(mcp, 'call_action', {
      name: 'create_project_package',
      arguments: { projectId: app.projectId, commandKey: crypto.randomUUID() },
    });
    const pkg = (await settledOperation(owner, started.result.result.id)).result as { id: string; sha256: string };
    const csv = `Item,Qty\nPendant light ${randomBytes(8).toString('hex')},2\n`;
    const imported = await post(`/files/projects/${app.projectId}/imports?filename=lights.csv`, 'text/csv', csv);
    await owner.imports.cancelScheduleImport.mutate({ projectId: app.projectId, importId: imported.id });
    const unnamed = await keepUnnamed();
    const figure = (await owner.studio.getStudioUsage.query({})).storage;

    // Everything so far was written two hours ago; then an upload keeps its file and has not yet written its record.
    ageBlobStore(app, 2);
    const midUpload = await keepUnnamed();
    const before = keptOriginals(app).sizes;
    expect(
      [kept.sha256, frozen.sha256, dropped.sha256, sha256(csv), unnamed, midUpload].every((d) => before.has(d)),
    ).toBe(true);
    expect(keptDerived(app)).toContain(`${kept.sha256}-r0-display.jpg`);

    const report = await sweepBlobs(app.rt.store, app.rt.files);
    const after = keptOriginals(app).sizes;
    expect(after.has(kept.sha256)).toBe(true);
    expect(after.has(frozen.sha256)).toBe(true);
    expect(after.has(midUpload)).toBe(true);
    expect(after.has(dropped.sha256)).toBe(false);
    expect(after.has(sha256(csv))).toBe(false);
    expect(after.has(unnamed)).toBe(false);
    expect(before.size - after.size).toBe(3);
    expect(report.removed).toBeGreaterThanOrEqual(3);
    // The turned photograph's upright sizes are superseded; the frozen one's are still its sizes.
    expect(keptDerived(app)).not.toContain(`${kept.sha256}-r0-display.jpg`);
    expect(keptDerived(app)).toContain(`${frozen.sha256}-r0-display.jpg`);
    // What the studio's records keep is what it was: the sweep took only what nothing named.
    expect((await owner.studio.getStudioUsage.query({})).storage).toEqual(figure);

    // The package still downloads whole from its entries.
    const link = await callTool(mcp, 'call_action', {
      name: 'download_project_package',
      arguments: { projectId: app.projectId, packageId: pkg.id },
    });
    const zip = Buffer.from(await (await fetch(`${app.url}${new URL(link.result.result.url).pathname}`)).arrayBuffer());
    expect(sha256(zip)).toBe(pkg.sha256);
  });

  it('leaves an old file held since (a package about to name it), and sweeps it once old again', async () => {
    const orphan = await keepUnnamed();
    ageBlobStore(app, 2);
    expect(await app.rt.files.hold(orphan)).toBe(true);
    await sweepBlobs(app.rt.store, app.rt.files);
    expect(keptOriginals(app).sizes.has(orphan)).toBe(true);
    ageBlobStore(app, 2);
    await sweepBlobs(app.rt.store, app.rt.files);
    expect(keptOriginals(app).sizes.has(orphan)).toBe(false);
    expect(await app.rt.files.hold(orphan)).toBe(false);
  });

  it("runs on the workers' timer too", async () => {
    const orphan = await keepUnnamed();
    ageBlobStore(app, 2);
    const logged: string[] = [];
    // A few milliseconds instead of STUDIO_SWEEP_HOURS' hours: the same timer and the same sweep.
    const sweeper = startSweeper(app.rt.store, app.rt.files as DiskBlobStore, 0.000_005, (m) => void logged.push(m));
    try {
      while (keptOriginals(app).sizes.has(orphan)) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await sweeper.stop();
    }
    expect(logged.some((m) => /^sweep removed \d+ unreferenced files/.test(m))).toBe(true);
  });
});
