/**
 * Where a test's data lives: the suite runs every store-touching test once per dialect (vitest projects `sqlite` and
 * `postgres`, see vitest.config.ts), from one test body. A fresh database is a file in a temporary folder, or a new
 * database on the run's PostgreSQL server; `locator` names it either way (a path or a postgres:// URL), and the
 * helpers that open it take that.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Dialect } from '../../db/store.js';
import { isPostgresUrl, type StoreOptions } from '../../db/open.js';

export const TEST_DIALECT: Dialect = process.env.STUDIO_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** A temporary folder of the test's own (the SQLite file, the owner-token file). */
  dir: string;
  /** The SQLite file's path; under PostgreSQL, where the file would be (its folder keeps the owner token). */
  path: string;
  /** The PostgreSQL database's URL, under PostgreSQL. */
  url?: string;
  /** The path or the URL: what `openTestStore` and the fixtures take. */
  locator: string;
  /** The server's environment for this database (`studio serve`, `studio mcp`). */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A URL to another database on the same server. */
const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

export async function freshDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'studio-test-'));
  const path = join(dir, 'studio.sqlite');
  if (TEST_DIALECT === 'sqlite') {
    return {
      dir,
      path,
      locator: path,
      env: { STUDIO_DATABASE: path },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const server = inject('postgresUrl');
  const name = `studio_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(server, name);
  return {
    dir,
    path,
    url,
    locator: url,
    env: { STUDIO_DATABASE: path, STUDIO_DATABASE_URL: url },
    async drop() {
      rmSync(dir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Store options for a locator: a postgres:// URL, or a file path. */
export const storeOptionsFor = (locator: string): StoreOptions =>
  isPostgresUrl(locator) ? { path: '', url: locator } : { path: locator };

/** The environment that points a server process at a database (STUDIO_DATABASE_URL, or STUDIO_DATABASE). */
export const databaseEnv = (locator: string): Record<string, string> =>
  isPostgresUrl(locator) ? { STUDIO_DATABASE_URL: locator } : { STUDIO_DATABASE: locator };
