/**
 * A read run alone (Store.readAlone: one record by id, GET of a line) opens no snapshot for its one statement, and must
 * answer exactly what a snapshot would: never a state older than the last commit (another read's open snapshot is not
 * joined), and the whole read again in a snapshot as soon as it asks for more than one statement or for the query
 * builder, even when the handler swallowed the refusal. PostgreSQL has no such mode: the same calls run in a snapshot.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/open.js';
import type { Store } from '../../db/store.js';
import { freshDatabase, storeOptionsFor, type TestDatabase } from '../helpers/test-database.js';

let database: TestDatabase;
let store: Store;

beforeAll(async () => {
  database = await freshDatabase();
  store = await openDatabase(storeOptionsFor(database.locator));
  await sql`CREATE TABLE alone_probe (id TEXT PRIMARY KEY, note TEXT NOT NULL)`.execute(store.db);
  await sql`INSERT INTO alone_probe (id, note) VALUES ('a', 'first'), ('b', 'other')`.execute(store.db);
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

const readAlone: Store['readSnapshot'] = (fn) => (store.readAlone ?? store.readSnapshot)(fn);
const NOTE = 'SELECT note FROM alone_probe WHERE id = ?';
const setNote = (note: string) =>
  store.write(async (tx) => {
    await sql`UPDATE alone_probe SET note = ${note} WHERE id = 'a'`.execute(tx);
  });

describe('a read run alone', () => {
  it('answers its one statement, and the last committed state even while another read holds a snapshot open', async () => {
    await setNote('before');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inSnapshot = '';
    let opened!: () => void;
    const snapshotRead = new Promise<void>((r) => (opened = r));
    const other = store.readSnapshot(async (_db, queryRow) => {
      inSnapshot = (await queryRow<{ note: string }>(NOTE, 'a'))!.note;
      opened();
      await held;
    });
    await snapshotRead;
    await setNote('after');
    const alone = readAlone(async (_db, queryRow) => (await queryRow<{ note: string }>(NOTE, 'a'))!.note);
    release();
    expect(await alone).toBe('after');
    await other;
    expect(inSnapshot).toBe('before');
  });

  it('runs again in a snapshot when it asks for a second statement, and answers both', async () => {
    await setNote('again');
    let runs = 0;
    const both = await readAlone(async (_db, queryRow) => {
      runs++;
      const a = await queryRow<{ note: string }>(NOTE, 'a');
      const b = await queryRow<{ note: string }>(NOTE, 'b');
      return `${a!.note}+${b!.note}`;
    });
    expect(both).toBe('again+other');
    expect(runs).toBe(store.readAlone ? 2 : 1);
  });

  it('runs again in a snapshot when it asks for the query builder, even if it caught the refusal', async () => {
    let runs = 0;
    const notes = await readAlone(async (db) => {
      runs++;
      try {
        const r = await sql<{ note: string }>`SELECT note FROM alone_probe ORDER BY id`.execute(db);
        return r.rows.map((row) => row.note).join(',');
      } catch {
        return 'swallowed';
      }
    });
    expect(notes).toBe('again,other');
    expect(runs).toBe(store.readAlone ? 2 : 1);
  });
});
