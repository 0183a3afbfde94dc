/**
 * create_project_package's ZIP, read back with yauzl: the project's documents (archived ones and earlier packages
 * left out), its client schedule export, and its pieces' photograph originals byte for byte, by section and piece;
 * then fetched through download_project_package's link.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { createProjectPackage } from '../../src/domain/documents/package.js';
import { exportClientSchedule, generateDocument } from '../../src/domain/documents/generate.js';
import { callTool } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { pricedProject } from './fixture.js';
import { workFor } from './work.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let project: Awaited<ReturnType<typeof pricedProject>>;

/** Every entry of a ZIP held in a buffer: its name and its bytes' SHA-256. */
function entries(zip: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, string>();
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const hash = createHash('sha256');
          stream.on('data', (c: Buffer) => hash.update(c));
          stream.on('end', () => {
            out.set(entry.fileName, hash.digest('hex'));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  project = await pricedProject(owner);
});

describe('a project package', () => {
  it('holds the documents, the export and the photograph originals, and downloads through its link', async () => {
    const work = await workFor(app, app.token, 'create_project_package');
    const pdf = await generateDocument(work, { projectId: project.id, kind: 'client_schedule' });
    const csv = await exportClientSchedule(work, { projectId: project.id, format: 'csv' });
    const archived = await generateDocument(work, { projectId: project.id, kind: 'spec_sheets' });
    await owner.documents.archiveProjectDocument.mutate({ projectId: project.id, documentId: archived.id });
    const earlier = await createProjectPackage(work, { projectId: project.id });

    const pkg = await createProjectPackage(work, { projectId: project.id });
    expect(pkg).toMatchObject({
      kind: 'project_package',
      format: 'zip',
      mediaType: 'application/zip',
      source: { kind: 'live' },
      title: 'Harbour House – Project package',
      filename: 'harbour-house-package.zip',
      pageCount: null,
    });
    expect(work.progressed.at(-1)).toEqual([6, 6]);

    const link = await callTool(mcp, 'call_action', {
      name: 'download_project_package',
      arguments: { projectId: project.id, packageId: pkg.id },
    });
    // The test server's base URL names port 0 (it listens on a free one): follow the link's path on it.
    const res = await fetch(`${app.url}${new URL(link.result.result.url).pathname}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const zip = Buffer.from(await res.arrayBuffer());
    expect(createHash('sha256').update(zip).digest('hex')).toBe(pkg.sha256);

    const inside = await entries(zip);
    const originals = await fromOutside(app.database, (db) =>
      db
        .selectFrom('line_photographs')
        .select(['original_sha256', 'line_id'])
        .where('project_id', '=', project.id)
        .execute(),
    );
    const console_ = project.lines.console_;
    const chandelier = project.lines.chandelier;
    const shaOf = (lineId: string) => originals.filter((o) => o.line_id === lineId).map((o) => o.original_sha256);
    expect([...inside.keys()].sort()).toEqual(
      [
        'harbour-house-client-schedule.xlsx',
        `documents/${pdf.filename}`,
        `documents/${csv.filename}`,
        `photographs/salon/${console_.code!.toLowerCase()}-gilded-console-1.jpg`,
        `photographs/salon/${console_.code!.toLowerCase()}-gilded-console-2.jpg`,
        `photographs/salon/${chandelier.code!.toLowerCase()}-murano-chandelier-1.jpg`,
      ].sort(),
    );
    expect(inside.get(`documents/${pdf.filename}`)).toBe(pdf.sha256);
    expect(inside.get(`documents/${csv.filename}`)).toBe(csv.sha256);
    expect(new Set(shaOf(console_.id))).toEqual(
      new Set([
        inside.get(`photographs/salon/${console_.code!.toLowerCase()}-gilded-console-1.jpg`),
        inside.get(`photographs/salon/${console_.code!.toLowerCase()}-gilded-console-2.jpg`),
      ]),
    );
    expect(shaOf(chandelier.id)).toEqual([
      inside.get(`photographs/salon/${chandelier.code!.toLowerCase()}-murano-chandelier-1.jpg`),
    ]);
    // Neither the archived spec sheets nor the earlier package is inside.
    expect([...inside.values()]).not.toContain(archived.sha256);
    expect([...inside.values()]).not.toContain(earlier.sha256);
  });
});
