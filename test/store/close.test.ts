/**
 * Closing a store lets its database go: nothing it opened stays open. On PostgreSQL a Kysely ends its pool only if it
 * ran a query itself, while most reads and every write use the pools directly; left open, their idle connections kept
 * a finished process alive for the pools' idle timeout (ten seconds: the demo's seeding child, every CLI command).
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../db/open.js';
import { TEST_DIALECT, freshDatabase, storeOptionsFor, type TestDatabase } from '../helpers/test-database.js';

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const d of databases) await d.drop();
});

/** A store that has written, read alone and read in a snapshot, so each of its connections was used. */
async function usedStore() {
  const database = await freshDatabase();
  databases.push(database);
  const store = await openDatabase(storeOptionsFor(database.locator));
  await store.write(async (tx) => {
    await sql`CREATE TABLE close_probe (id TEXT PRIMARY KEY)`.execute(tx);
    await sql`INSERT INTO close_probe (id) VALUES ('a')`.execute(tx);
  });
  expect(await store.readRow<{ id: string }>('SELECT id FROM close_probe')).toEqual({ id: 'a' });
  expect(await store.readSnapshot((_db, row) => row<{ id: string }>('SELECT id FROM close_probe'))).toEqual({
    id: 'a',
  });
  return { database, store };
}

describe('a closed store', () => {
  it.runIf(TEST_DIALECT === 'postgres')(
    'has ended every connection of its pools: its database drops without being forced',
    async () => {
      const { database, store } = await usedStore();
      await store.close();
      const name = new URL(database.url!).pathname.slice(1);
      const admin = new pg.Client({ connectionString: inject('postgresUrl') });
      await admin.connect();
      try {
        // DROP DATABASE refuses while a session is connected, after waiting up to 5 s for it to leave: ended
        // connections leave at once, idle ones only at the pools' 10 s timeout.
        await expect(admin.query(`DROP DATABASE ${name}`)).resolves.toBeDefined();
      } finally {
        await admin.end();
      }
    },
  );

  /** The files of `path` this process holds open. */
  const openFilesOf = (path: string) =>
    readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        const file = readlinkSync(`/proc/self/fd/${fd}`);
        return file.startsWith(path) ? [file] : [];
      } catch {
        return [];
      }
    });

  it.runIf(TEST_DIALECT === 'sqlite' && process.platform === 'linux')(
    'holds no file of its database open',
    async () => {
      const { database, store } = await usedStore();
      expect(openFilesOf(database.path)).not.toEqual([]);
      await store.close();
      expect(openFilesOf(database.path)).toEqual([]);
    },
  );

  // Kysely closes a SQLite handle only if it used it itself; a store read only by its row reader never made it.
  it.runIf(TEST_DIALECT === 'sqlite' && process.platform === 'linux')(
    'holds no file open when it was only read a row at a time',
    async () => {
      const database = await freshDatabase();
      databases.push(database);
      const store = await openDatabase(storeOptionsFor(database.locator));
      expect(await store.readRow<{ one: number }>('SELECT 1 AS one')).toEqual({ one: 1 });
      await store.close();
      expect(openFilesOf(database.path)).toEqual([]);
    },
  );
});
