import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, type RunningServer, openServer } from '../helpers/server.js';
import { http } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { freshDatabase } from '../helpers/test-database.js';
import { getPage, postForm } from '../members/page-client.js';

const run = promisify(execFile);
const studio = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

let server: RunningServer;
openServer((started) => (server = started));

describe('the studio command line', () => {
  it('explains itself: --help lists every command and the environment', async () => {
    const { stdout } = await studio(['--help']);
    for (const word of [
      'serve',
      'mcp',
      'migrate',
      'migrate-data',
      'token create',
      'password reset',
      'STUDIO_DATABASE',
      'STUDIO_DATABASE_URL',
      'STUDIO_PORT',
      'STUDIO_TOKEN',
    ])
      expect(stdout).toContain(word);
    expect((await studio(['token', '--help'])).stdout).toContain('--email');
  });

  it('refuses an unknown command with exit code 2 and the help text', async () => {
    const err = await studio(['frobnicate']).catch((e: { code: number; stderr: string }) => e);
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stderr: string }).stderr).toContain('Unknown command "frobnicate"');
  });

  it('migrate creates every table in a new database, and a second run has nothing to do', async () => {
    const db = await freshDatabase();
    try {
      expect((await studio(['migrate'], db.env)).stdout).toMatch(/Applied migrations 1, 2, /);
      const tables = await fromOutside(db.locator, (kysely) => kysely.introspection.getTables());
      expect(tables.map((t) => t.name)).toEqual(
        expect.arrayContaining([
          'studios',
          'members',
          'api_tokens',
          'projects',
          'sections',
          'lines',
          'audit_events',
          'idempotency_records',
        ]),
      );
      expect((await studio(['migrate'], db.env)).stdout).toContain('is up to date');
    } finally {
      await db.drop();
    }
  });

  it('token create mints a working token for the owner, shown once', async () => {
    const { stdout, stderr } = await studio(['token', 'create', '--name', 'laptop'], server.databaseEnv);
    const token = stdout.trim();
    expect(token).toMatch(/^studio_[A-Za-z0-9_-]{43}$/);
    expect(stderr).toContain('shown once');
    const res = await http(server.url, 'GET', '/v1/projects', { token });
    expect(res.status).toBe(200);
    const stored = await fromOutside(server.database, (db) =>
      db.selectFrom('api_tokens').select('token_hash').where('name', '=', 'laptop').executeTakeFirstOrThrow(),
    );
    expect(stored.token_hash).not.toContain(token);
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('password reset gives the owner a new password, shown once; the printed one stops working', async () => {
    const { stdout, stderr } = await studio(['password', 'reset'], server.databaseEnv);
    const password = stdout.trim();
    expect(password).toMatch(/^[a-z2-9]{20}$/);
    expect(password).not.toBe(server.password);
    expect(stderr).toContain('alex@hartley-rowe.example');
    const signIn = async (pw: string) => {
      const form = await getPage(`${server.url}/login`);
      const fields = { form_token: form.formToken!, email: 'alex@hartley-rowe.example', password: pw };
      return (await postForm(`${server.url}/login`, fields, form.cookies)).status;
    };
    expect(await signIn(server.password!)).toBe(401);
    expect(await signIn(password)).toBe(303);
  });

  it('token create for an unknown email fails with exit code 2 and mints nothing', async () => {
    const err = await studio(['token', 'create', '--email', 'nobody@example.com'], server.databaseEnv).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stderr: string }).stderr).toContain('No member matches');
  });
});
