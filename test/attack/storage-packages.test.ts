/**
 * Packages keep no copy of what they pack (issue 29, item 6). Before, each create_project_package stored another copy
 * of every original (three packages of 150 MB of photographs added 450 MB); now a package is its list of entries and
 * its ZIP is written from them at each download, so three packages of the same photographs add only their small
 * schedule exports to the blob store, and each still downloads whole, its length and digest as its record states.
 * Before the fix this test failed: the originals grew by three times the photographs' bytes.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { callTool, settledOperation } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { keptOriginals } from '../helpers/blobs.js';
import { noisyPng } from '../helpers/images.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { photographsPath, postFile } from '../helpers/uploads.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
/** The photographs' bytes, all different. */
let photographBytes = 0;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  const lines = await fetch(`${app.url}/v1/projects/${app.projectId}/items?limit=3`, {
    headers: { authorization: `Bearer ${app.token}` },
  });
  const items = ((await lines.json()) as { items: Array<{ id: string }> }).items;
  for (const [i, line] of items.entries()) {
    const bytes = await noisyPng(700 + i, 500);
    const res = await postFile(app, photographsPath(app.projectId, line.id, `p${i}.png`), bytes, 'image/png');
    expect(res.status).toBe(201);
    photographBytes += bytes.length;
  }
});

/** One create_project_package through MCP, followed to its end; the package's record. */
async function makePackage() {
  const started = await callTool(mcp, 'call_action', {
    name: 'create_project_package',
    arguments: { projectId: app.projectId, commandKey: crypto.randomUUID() },
  });
  const op = await settledOperation(owner, started.result.result.id);
  expect(op.status).toBe('succeeded');
  return op.result as { id: string; byteSize: number; sha256: string };
}

describe('three packages of the same photographs', () => {
  it('add only their exports to storage, and each downloads whole', async () => {
    const before = keptOriginals(app).bytes;
    const packages = [await makePackage(), await makePackage(), await makePackage()];
    const added = keptOriginals(app).bytes - before;
    // Three copies would be 3 × photographBytes (about 3 MB here); three small XLSX exports are a few kilobytes.
    expect(photographBytes).toBeGreaterThan(3_000_000);
    expect(added).toBeLessThan(photographBytes / 20);
    for (const pkg of packages) {
      expect(pkg.byteSize).toBeGreaterThan(photographBytes);
      const link = await callTool(mcp, 'call_action', {
        name: 'download_project_package',
        arguments: { projectId: app.projectId, packageId: pkg.id },
      });
      const res = await fetch(`${app.url}${new URL(link.result.result.url).pathname}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(pkg.byteSize));
      const zip = Buffer.from(await res.arrayBuffer());
      expect(zip.length).toBe(pkg.byteSize);
      expect(createHash('sha256').update(zip).digest('hex')).toBe(pkg.sha256);
    }
  });
});
