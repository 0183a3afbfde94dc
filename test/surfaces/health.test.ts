/**
 * `/health` (the process answers) and `/health/ready` (the store answers, every migration of this build is applied,
 * the operation workers run), on both stores: a database missing its newest migration is not ready (503, saying
 * which check failed) until it has it again.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationFiles } from '../../db/migration-files.js';
import { loadConfig } from '../../src/config.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';

let app: TestApp;
openTestApp((opened) => ({ app } = opened));

const ready = async () => {
  const res = await fetch(`${app.url}/health/ready`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe('health', () => {
  it('/health answers ok without a token', async () => {
    const res = await fetch(`${app.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('/health/ready says the store answers, the migrations are current and the workers run', async () => {
    const available = migrationFiles().length;
    expect(await ready()).toEqual({
      status: 200,
      body: {
        status: 'ready',
        store: 'ok',
        migrations: { applied: available, available, current: true },
        workers: { configured: 1, running: true },
      },
    });
  });

  it('a database missing its newest migration is not ready, and is again once it has it', async () => {
    const db = app.rt.store.db;
    const newest = (
      await sql<{ version: number; name: string; applied_at: string }>`
      SELECT version, name, applied_at FROM schema_migrations ORDER BY version DESC LIMIT 1`.execute(db)
    ).rows[0]!;
    await sql`DELETE FROM schema_migrations WHERE version = ${newest.version}`.execute(db);
    try {
      const { status, body } = await ready();
      expect(status).toBe(503);
      expect(body.status).toBe('not_ready');
      expect(body.migrations).toMatchObject({ applied: migrationFiles().length - 1, current: false });
      expect(body.store).toBe('ok');
    } finally {
      await sql`INSERT INTO schema_migrations (version, name, applied_at)
        VALUES (${newest.version}, ${newest.name}, ${newest.applied_at})`.execute(db);
    }
    expect((await ready()).status).toBe(200);
  });
});

describe('STUDIO_LOG_LEVEL and STUDIO_LOG_FORMAT', () => {
  it('take the documented values, default to info and json, and refuse anything else by name', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    expect(loadConfig({}).logFormat).toBe('json');
    for (const level of ['silent', 'error', 'warn', 'info', 'debug'] as const) {
      expect(loadConfig({ STUDIO_LOG_LEVEL: level.toUpperCase() }).logLevel).toBe(level);
    }
    expect(loadConfig({ STUDIO_LOG_FORMAT: 'text' }).logFormat).toBe('text');
    expect(() => loadConfig({ STUDIO_LOG_LEVEL: 'verbose' })).toThrow(/STUDIO_LOG_LEVEL must be one of silent, error/);
    expect(() => loadConfig({ STUDIO_LOG_FORMAT: 'pretty' })).toThrow(/STUDIO_LOG_FORMAT must be json or text/);
  });
});
