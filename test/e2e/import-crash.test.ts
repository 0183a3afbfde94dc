/**
 * kill -9 of the server while an import's commit is being applied leaves the whole import or nothing, never part:
 * the real server process on its SQLite file, a 10,000-row import committed and the process killed at several points
 * of the commit (timed from one commit left to finish), then the file checked as the next start would find it
 * (`PRAGMA integrity_check`, lines counted against each import's status). Finally a start with a short lease takes up
 * the operations the dead processes left running: every import ends committed exactly once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledOperation } from '../helpers/calls.js';
import { trpc } from '../helpers/clients.js';
import { httpMcp } from '../helpers/e2e.js';
import { CLI, type RunningServer, startServer } from '../helpers/server.js';

const ROWS = 10_000;
const CSV = `Item,Qty,Net,Room\n${Array.from({ length: ROWS }, (_, i) => `Chair ${i + 1},${(i % 5) + 1},"£${i + 1}.50",Floor ${1 + Math.floor(i / 1000)}`).join('\n')}\n`;

let first: RunningServer;
let projectId: string;

beforeAll(async () => {
  first = await startServer({ STUDIO_OPERATION_LEASE_SECONDS: '3' });
  const projects = await fetch(`${first.url}/v1/projects?q=Harbour`, {
    headers: { authorization: `Bearer ${first.token}` },
  });
  projectId = ((await projects.json()) as { items: Array<{ id: string }> }).items[0]!.id;
});
afterAll(async () => first?.stop());

/** Another server process over the same database (the demo is not seeded again), answered once it listens. */
async function serve(): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      ...first.databaseEnv,
      STUDIO_PORT: '0',
      STUDIO_LOG_LEVEL: 'warn',
      STUDIO_OPERATION_LEASE_SECONDS: '3',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url, proc };
}

/** A previewed import of the 10,000 rows, ready to commit. */
async function previewedImport(url: string) {
  const mcp = await httpMcp(url, first.token);
  const up = await mcp.client.callTool({
    name: 'call_action',
    arguments: {
      name: 'upload_import_file',
      arguments: {
        projectId,
        data: Buffer.from(CSV).toString('base64'),
        filename: 'ten-thousand.csv',
        mediaType: 'text/csv',
        commandKey: crypto.randomUUID(),
      },
    },
  });
  await mcp.close();
  const importId = (up.structuredContent as { result: { id: string } }).result.id;
  const p = await trpc(url, first.token).imports.previewScheduleImport.mutate({ projectId, importId, lines: 0 });
  expect(p.counts).toMatchObject({ lines: ROWS, errors: 0 });
  return { importId, version: p.import.version };
}

const commit = (url: string, imp: { importId: string; version: number }) =>
  trpc(url, first.token).imports.commitScheduleImport.mutate({
    projectId,
    importId: imp.importId,
    expectedVersion: imp.version,
  });

/** What the file holds now, read as the next start reads it. */
function inspect() {
  const db = new Database(first.database);
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    const lines = (db.prepare('SELECT count(*) AS n FROM lines WHERE project_id = ?').get(projectId) as { n: number })
      .n;
    const imports = db
      .prepare("SELECT id, status FROM imports WHERE project_id = ? AND filename = 'ten-thousand.csv'")
      .all(projectId) as Array<{ id: string; status: string }>;
    return { integrity, lines, imports };
  } finally {
    db.close();
  }
}

describe('kill -9 during an import commit', () => {
  it('leaves each import whole or absent, the file intact, and a later start finishes what was left', async () => {
    const base = inspect().lines;
    // One commit left to finish, to time the kills inside the next ones.
    const timed = await previewedImport(first.url);
    const started = Date.now();
    const op = await commit(first.url, timed);
    expect((await settledOperation(trpc(first.url, first.token), op.id)).status).toBe('succeeded');
    const took = Date.now() - started;
    expect(inspect().lines).toBe(base + ROWS);
    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));

    for (const fraction of [0.4, 0.8]) {
      const server = await serve();
      const imp = await previewedImport(server.url);
      await commit(server.url, imp);
      await new Promise((r) => setTimeout(r, Math.round(took * fraction)));
      server.proc.kill('SIGKILL');
      await new Promise((r) => server.proc.once('exit', r));

      const seen = inspect();
      expect(seen.integrity).toBe('ok');
      const committed = seen.imports.filter((i) => i.status === 'committed').length;
      // Whole imports only: never a part of one.
      expect(seen.lines).toBe(base + committed * ROWS);
      expect(seen.imports.every((i) => i.status === 'committed' || i.status === 'committing')).toBe(true);
    }

    // A start after the lease ran out takes the unfinished commits up again; none is applied twice.
    const last = await serve();
    try {
      const asOwner = trpc(last.url, first.token);
      const pending = (await asOwner.operations.listOperations.query({ projectId })).items.filter(
        (o) => o.kind === 'import_commit' && o.status !== 'succeeded',
      );
      for (const o of pending) expect((await settledOperation(asOwner, o.id)).status).toBe('succeeded');
    } finally {
      last.proc.kill('SIGTERM');
      await new Promise((r) => last.proc.once('exit', r));
    }
    const end = inspect();
    expect(end.integrity).toBe('ok');
    expect(end.imports).toHaveLength(3);
    expect(end.imports.every((i) => i.status === 'committed')).toBe(true);
    expect(end.lines).toBe(base + 3 * ROWS);
  });
});
