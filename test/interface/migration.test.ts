/**
 * Migration 021 over a database made before it, on each dialect: the first-run time kept per person (`user_state`)
 * becomes the state of each of that person's memberships, the old table goes, and a person who had not finished the
 * first run gets no row (the defaults).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, statementsFor } from '../../db/migration-files.js';
import { migratePostgres } from '../../db/postgres.js';
import { migrate } from '../../db/sqlite.js';
import { ID_PATTERN } from '../../src/core/ids.js';
import { freshDatabase, TEST_DIALECT, type TestDatabase } from '../helpers/test-database.js';

/** Plain SQL on either dialect: the statements below carry no parameters. */
interface Raw {
  run(sql: string): Promise<void>;
  rows<T>(sql: string): Promise<T[]>;
  migrateRest(): Promise<number[]>;
  close(): Promise<void>;
}

async function open(db: TestDatabase): Promise<Raw> {
  if (TEST_DIALECT === 'postgres') {
    const pool = new pg.Pool({ connectionString: db.url });
    return {
      run: async (sql) => void (await pool.query(sql)),
      rows: async <T>(sql: string) => (await pool.query(sql)).rows as T[],
      migrateRest: () => migratePostgres(pool),
      close: () => pool.end(),
    };
  }
  const handle = new Database(db.path);
  handle.pragma('foreign_keys = ON');
  return {
    run: async (sql) => void handle.exec(sql),
    rows: async <T>(sql: string) => handle.prepare(sql).all() as T[],
    migrateRest: async () => migrate(handle),
    close: async () => void handle.close(),
  };
}

const AT = '2026-05-01T09:00:00.000Z';
let database: TestDatabase;
let raw: Raw;

beforeAll(async () => {
  database = await freshDatabase();
  raw = await open(database);
  await raw.run(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of await loadMigrations(20)) {
    for (const s of statementsFor(m, TEST_DIALECT)) await raw.run(s);
    await raw.run(`INSERT INTO schema_migrations VALUES (${m.version}, '${m.name}', '${AT}')`);
  }
  for (const s of ['s1', 's2']) {
    await raw.run(
      `INSERT INTO studios (id, name, currency, default_markup4, default_unit_id, code_prefix, created_at, updated_at, version)
       VALUES ('${s}', 'Studio ${s}', 'GBP', '3500', NULL, 'FF', '${AT}', '${AT}', 1)`,
    );
  }
  for (const u of ['u1', 'u2']) {
    await raw.run(
      `INSERT INTO users (id, email, name, created_at) VALUES ('${u}', '${u}@example.test', '${u}', '${AT}')`,
    );
  }
  for (const [m, s, u] of [
    ['m1', 's1', 'u1'],
    ['m2', 's2', 'u1'],
    ['m3', 's1', 'u2'],
  ]) {
    await raw.run(
      `INSERT INTO members (id, studio_id, user_id, role, created_at) VALUES ('${m}', '${s}', '${u}', 'owner', '${AT}')`,
    );
  }
  await raw.run(`INSERT INTO user_state (user_id, first_run_completed_at) VALUES ('u1', '${AT}'), ('u2', NULL)`);
});
afterAll(async () => {
  await raw?.close();
  await database?.drop();
});

describe('migrating the first-run flag from people to memberships', () => {
  it('applies 021 (and what follows), once', async () => {
    expect(await raw.migrateRest()).toContain(21);
    expect(await raw.migrateRest()).toEqual([]);
  });

  it("gives each of a person's memberships their first-run time, at version 1 with the default sidebar", async () => {
    const rows = await raw.rows<Record<string, unknown>>(
      'SELECT id, member_id, sidebar, first_run_completed_at, version FROM member_interface_state ORDER BY member_id',
    );
    expect(rows.map(({ id: _id, ...r }) => r)).toEqual([
      { member_id: 'm1', sidebar: null, first_run_completed_at: AT, version: 1 },
      { member_id: 'm2', sidebar: null, first_run_completed_at: AT, version: 1 },
    ]);
    for (const r of rows) expect(r.id).toMatch(ID_PATTERN);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2);
  });

  it('drops the per-person table', async () => {
    await expect(raw.rows('SELECT * FROM user_state')).rejects.toThrow();
  });
});
