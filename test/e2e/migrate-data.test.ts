/**
 * `studio migrate-data`: a studio on SQLite moves up to PostgreSQL (issue 10). The demo studio is served from a file
 * and changed through the API, copied with the CLI as a self-hoster would run it, then served from PostgreSQL: the same
 * records through the same API, the same token, an intact audit chain, and a second copy refused. PostgreSQL only.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, startServer, type RunningServer } from '../helpers/server.js';
import { serveOn, type Served } from '../helpers/raw-http.js';
import { currentEtag, http, trpc } from '../helpers/clients.js';
import { freshDatabase, type TestDatabase } from '../helpers/test-database.js';
import { firstItem } from '../helpers/schedule.js';

const run = promisify(execFile);
let source: RunningServer;
let target: TestDatabase;
let onPostgres: Served | undefined;
let before: { projects: unknown; lines: unknown; projectId: string };

/** The source server's SQLite file (its database locator is PostgreSQL's in the postgres project). */
const sqlitePath = () => source.databaseEnv.STUDIO_DATABASE!;
const migrateData = (from: string, to: string) =>
  run(process.execPath, [CLI, 'migrate-data', '--from', `sqlite:${from}`, '--to', to], { cwd: ROOT });

beforeAll(async () => {
  // The source is a file whatever the project: an empty STUDIO_DATABASE_URL keeps the server on SQLite.
  source = await startServer({ STUDIO_DATABASE_URL: '' });
  const projects = await http(source.url, 'GET', '/v1/projects', { token: source.token });
  const projectId = projects.body.items[0].id as string;
  const line = await firstItem(source, projectId);
  await http(source.url, 'PATCH', `/v1/projects/${projectId}/items/${line.id}`, {
    token: source.token,
    headers: {
      'if-match': await currentEtag(source.url, source.token, `/v1/projects/${projectId}/items/${line.id}`),
      'content-type': 'application/merge-patch+json',
    },
    body: { finish: 'Copied across' },
  });
  await http(source.url, 'POST', `/v1/projects`, {
    token: source.token,
    headers: { 'idempotency-key': randomUUID() },
    body: { name: 'Moved up', sections: ['Hall', 'Study'] },
  });
  before = {
    projectId,
    projects: (await http(source.url, 'GET', '/v1/projects', { token: source.token })).body,
    lines: (await http(source.url, 'GET', `/v1/projects/${projectId}/items`, { token: source.token })).body,
  };
  const exited = new Promise((r) => source.proc.once('exit', r));
  source.proc.kill('SIGTERM');
  await exited;
  target = await freshDatabase();
}, 120_000);
afterAll(async () => {
  await onPostgres?.stop();
  await source?.stop();
  await target?.drop();
});

describe('studio migrate-data --from sqlite:… --to postgres://…', () => {
  it('copies every table and says what it verified', async () => {
    const { stdout } = await migrateData(sqlitePath(), target.url!);
    expect(stdout).toMatch(/^lines\s+\d+ rows$/m);
    expect(stdout).toMatch(/^audit_events\s+\d+ rows$/m);
    expect(stdout).toMatch(
      /Copied and verified: 1 studio\(s\), every table's row count, \d+ audit events on intact chains\./,
    );
  });

  it('serves the same studio from PostgreSQL: the same records, the same token, an intact audit chain', async () => {
    onPostgres = await serveOn({ STUDIO_DATABASE: `${target.dir}/unused.sqlite`, STUDIO_DATABASE_URL: target.url! });
    const projects = await http(onPostgres.url, 'GET', '/v1/projects', { token: source.token });
    expect(projects.status).toBe(200);
    expect(projects.body).toEqual(before.projects);
    const lines = await http(onPostgres.url, 'GET', `/v1/projects/${before.projectId}/items`, { token: source.token });
    expect(lines.body).toEqual(before.lines);
    expect(JSON.stringify(lines.body)).toContain('Copied across');
    const feed = await trpc(onPostgres.url, source.token).audit.listStudioAuditEvents.query({
      verifyChain: true,
      limit: 1,
    });
    expect(feed.chain).toMatchObject({ intact: true, brokenAtSeq: null });
    expect(feed.chain!.eventsChecked).toBeGreaterThanOrEqual(2);
  });

  it('refuses to copy into a database that already holds a studio, with exit code 2', async () => {
    const err = await migrateData(sqlitePath(), target.url!).catch((e: { code: number; stderr: string }) => e);
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stderr: string }).stderr).toMatch(
      /already holds a studio; migrate-data copies into an empty database only/,
    );
  });

  it('refuses a source that does not exist and a target that is not PostgreSQL', async () => {
    const missing = await migrateData('/nonexistent/studio.sqlite', target.url!).catch((e) => e);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toContain('There is no SQLite database at /nonexistent/studio.sqlite');
    const notPg = await migrateData(sqlitePath(), 'mysql://localhost/studio').catch((e) => e);
    expect(notPg).toMatchObject({ code: 2 });
    expect(notPg.stderr).toContain('--to must be a PostgreSQL URL');
  });
});
