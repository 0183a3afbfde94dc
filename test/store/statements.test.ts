/**
 * The store's lean statement paths, on each dialect: compiled statement shapes reused with new values (db/compiled-shape.ts)
 * and, on PostgreSQL, statements that describe their columns once per connection (db/pg-statement.ts). Both answer
 * exactly what the query builder and pg's own Query would.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { insertRows, updateVersioned } from '../../db/compiled-shape.js';
import { Batch } from '../../db/pg-batch.js';
import { Statement, type StatementResult } from '../../db/pg-statement.js';
import { openDatabase } from '../../db/open.js';
import type { Store } from '../../db/store.js';
import { TEST_DIALECT, freshDatabase, storeOptionsFor, type TestDatabase } from '../helpers/test-database.js';

let database: TestDatabase;
let store: Store;

beforeAll(async () => {
  database = await freshDatabase();
  store = await openDatabase(storeOptionsFor(database.locator));
  await store.write((tx) =>
    tx
      .insertInto('studios')
      .values({
        id: STUDIO,
        name: 'Probe studio',
        currency: 'GBP',
        default_markup4: '0',
        default_unit_id: null,
        code_prefix: 'PR',
        brand_display_name: null,
        brand_logo_text: null,
        created_at: AT,
        updated_at: AT,
        version: 1,
      })
      .execute(),
  );
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

const STUDIO = 'st_probe';
const AT = '2026-11-23T00:00:00.000Z';
const unit = (id: string, name: string) => ({
  id,
  studio_id: STUDIO,
  name,
  symbol: name.slice(0, 2),
  version: 1,
  archived_at: null,
  created_at: AT,
  updated_at: AT,
});

describe('insertRows', () => {
  it('compiles as the query builder does, and the second insert of a shape carries only its own values', async () => {
    const a = insertRows(store.db, 'units', [unit('u_ins_1', 'each'), unit('u_ins_2', 'pair')]);
    expect(a).toMatchObject(
      store.db
        .insertInto('units')
        .values([unit('u_ins_1', 'each'), unit('u_ins_2', 'pair')])
        .compile(),
    );
    const b = insertRows(store.db, 'units', [unit('u_ins_3', 'set'), unit('u_ins_4', 'roll')]);
    expect(b.sql).toBe(a.sql);
    expect(b.parameters).toEqual(Object.values(unit('u_ins_3', 'set')).concat(Object.values(unit('u_ins_4', 'roll'))));
    await store.write(async (tx) => {
      await tx.executeQuery(a);
      await tx.executeQuery(b);
    });
    const names = await store.readDb
      .selectFrom('units')
      .select('name')
      .where('id', 'like', 'u_ins_%')
      .orderBy('id')
      .execute();
    expect(names.map((r) => r.name)).toEqual(['each', 'pair', 'set', 'roll']);
  });

  it('leaves a row that omits a column to the query builder (its DEFAULT), and a different row count is its own shape', () => {
    const withGap = insertRows(store.db, 'units', [{ ...unit('u_gap', 'gap'), archived_at: undefined }]);
    expect(withGap.sql).not.toContain('archived_at');
    const three = insertRows(store.db, 'units', [unit('u_3a', 'a'), unit('u_3b', 'b'), unit('u_3c', 'c')]);
    expect(three.parameters).toHaveLength(24);
  });
});

describe('updateVersioned', () => {
  it('compiles as the query builder does, leaves out columns set to undefined, and reuses the shape with new values', async () => {
    const first = updateVersioned(store.db, 'units', { name: 'each', symbol: undefined, version: 2 }, 'u_ins_1', 1);
    expect(first).toMatchObject(
      store.db
        .updateTable('units')
        .set({ name: 'each', version: 2 })
        .where('id', '=', 'u_ins_1')
        .where('version', '=', 1)
        .compile(),
    );
    const second = updateVersioned(store.db, 'units', { name: 'pair', version: 2 }, 'u_ins_2', 1);
    expect(second.sql).toBe(first.sql);
    expect(second.parameters).toEqual(['pair', 2, 'u_ins_2', 1]);
    const stale = updateVersioned(store.db, 'units', { name: 'stale', version: 3 }, 'u_ins_1', 1);
    const changed = await store.write(async (tx) => [
      (await tx.executeQuery(first)).numAffectedRows,
      (await tx.executeQuery(stale)).numAffectedRows,
    ]);
    // The second UPDATE names version 1, which the first has just moved on: it matches nothing.
    expect(changed.map(Number)).toEqual([1, 0]);
  });
});

describe('one-row reads', () => {
  it('types each column as the driver does, nulls included, on every execution of the same statement', async () => {
    const read = () =>
      store.readRow<{ n: number; t: string; z: null }>(
        `SELECT COUNT(*) AS n, ? AS t, NULL AS z FROM units WHERE id LIKE ?`,
        'text',
        'u_ins_%',
      );
    for (let i = 0; i < 3; i++) expect(await read()).toEqual({ n: 4, t: 'text', z: null });
  });

  it('keeps the last of two columns with one name, and a failed statement leaves the connection answering', async () => {
    await store.readSnapshot(async (_db, row) => {
      expect(await row(`SELECT 'first' AS a, 'second' AS a FROM units WHERE id = ?`, 'u_ins_1')).toEqual({
        a: 'second',
      });
      await expect(row(`SELECT no_such_column FROM units WHERE id = ?`, 'u_ins_1')).rejects.toThrow();
    });
    expect(await store.readRow(`SELECT name FROM units WHERE id = ?`, 'u_ins_2')).toEqual({ name: 'pair' });
  });

  // better-sqlite3 sets each column by name, so there the column is lost (its value cannot be a prototype either).
  it.runIf(TEST_DIALECT === 'postgres')(
    'answers a column named __proto__ as data, not as the row’s prototype',
    async () => {
      const row = await store.readRow<Record<string, unknown>>(
        `SELECT name AS "__proto__" FROM units WHERE id = ?`,
        'u_ins_1',
      );
      expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('each');
    },
  );

  // PostgreSQL refuses to run a prepared statement whose result changed shape ("cached plan must not change result
  // type"); SQLite re-prepares it, so its reader must learn the new columns rather than label values with the old ones.
  it.runIf(TEST_DIALECT === 'sqlite')(
    'learns a statement’s columns again when the schema under it changes',
    async () => {
      const read = () => store.readRow<Record<string, unknown>>('SELECT * FROM units WHERE id = ?', 'u_ins_2');
      expect(await read()).not.toHaveProperty('remark');
      await store.write((tx) => sql`ALTER TABLE units ADD COLUMN remark TEXT DEFAULT 'new'`.execute(tx));
      expect(await read()).toMatchObject({ id: 'u_ins_2', name: 'pair', remark: 'new' });
      await store.write((tx) => sql`ALTER TABLE units DROP COLUMN remark`.execute(tx));
      expect(await read()).not.toHaveProperty('remark');
    },
  );

  it.runIf(TEST_DIALECT === 'postgres')(
    'a table whose columns change under a prepared SELECT * fails at most one read per connection, then reads them',
    async () => {
      // Through snapshots: their connections go back to the pool after an error (pool.query drops one instead).
      const read = () =>
        store.readSnapshot((_db, row) => row<Record<string, unknown>>('SELECT * FROM units WHERE id = ?', 'u_ins_2'));
      const eight = () => Promise.allSettled(Array.from({ length: 8 }, read));
      // Prepared on the reader connections (eight at once take eight connections).
      expect((await eight()).every((o) => o.status === 'fulfilled')).toBe(true);
      // What another process's migration does, here through this store's writer.
      await store.write((tx) => sql`ALTER TABLE units ADD COLUMN remark TEXT DEFAULT 'new'`.execute(tx));
      for (const o of await eight()) {
        if (o.status === 'rejected') expect((o.reason as { code?: string }).code).toBe('0A000');
      }
      const after = await eight();
      expect(after.map((o) => o.status)).toEqual(Array(8).fill('fulfilled'));
      for (const o of after)
        expect((o as PromiseFulfilledResult<Record<string, unknown>>).value).toMatchObject({ remark: 'new' });
      await store.write((tx) => sql`ALTER TABLE units DROP COLUMN remark`.execute(tx));
    },
  );

  it('counts the rows a statement changed, through the query builder', async () => {
    const r = await store.write((tx) => sql`UPDATE units SET name = name WHERE id LIKE ${'u_ins_%'}`.execute(tx));
    expect(Number(r.numAffectedRows)).toBe(4);
  });
});

/**
 * A write group's statements leave in batches ended by one Sync (db/pg-batch.ts), here driven straight on a pipelined
 * connection of the test database: each statement answers its own result, a failure answers the failed statement with
 * PostgreSQL's error and every later one with "not run", and the connection goes on with the next batch.
 */
describe.runIf(TEST_DIALECT === 'postgres')('batches of statements ended by one Sync', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: database.url, pipeline: true } as pg.ClientConfig);
    await client.connect();
  });
  afterAll(() => client?.end());

  /** Statements sent as one Batch; each one's outcome. */
  const batch = (...specs: Array<[text: string, values?: unknown[], name?: string]>) => {
    const outcomes = specs.map(([text, values, name]) => {
      let statement!: Statement;
      const answered = new Promise<StatementResult>((resolve, reject) => {
        statement = new Statement(text, values, name, (err, result) => (err ? reject(err) : resolve(result!)));
      });
      return { statement, answered };
    });
    void client.query(new Batch(outcomes.map((o) => o.statement)) as never);
    return Promise.allSettled(outcomes.map((o) => o.answered));
  };
  const rowsOf = (o: PromiseSettledResult<StatementResult> | undefined) =>
    o?.status === 'fulfilled' ? o.value.rows : o?.reason;
  const codeOf = (o: PromiseSettledResult<StatementResult> | undefined) =>
    o?.status === 'rejected' ? (o.reason as { code?: string }).code : 'answered';

  it('answers each statement, a failed one with its error and every later one as not run', async () => {
    const first = await batch(
      ['BEGIN'],
      ['SELECT $1::int + 1 AS n', [1], 'batch_plus'],
      ['SELECT 1 / $1::int AS n', [0], 'batch_divide'],
      ['SELECT $1::text AS t', ['never'], 'batch_echo'],
      ['SELECT $1::int * 3 AS n', [2], 'batch_plus_again'],
    );
    expect(first[0]).toMatchObject({ status: 'fulfilled', value: { command: 'BEGIN' } });
    expect(rowsOf(first[1])).toEqual([{ n: 2 }]);
    expect(codeOf(first[2])).toBe('22012');
    expect(first.slice(3).map(codeOf)).toEqual(['25P02', '25P02']);
    expect(String((first[3] as PromiseRejectedResult).reason.message)).toMatch(/earlier statement failed/);

    // The skipped statements were never prepared: they are prepared now, and the ones prepared before are reused.
    const second = await batch(
      ['ROLLBACK'],
      ['SELECT $1::text AS t', ['now'], 'batch_echo'],
      ['SELECT $1::int + 1 AS n', [41], 'batch_plus'],
      ['SELECT $1::int * 3 AS n', [3], 'batch_plus_again'],
    );
    expect(second.map((o) => rowsOf(o))).toEqual([[], [{ t: 'now' }], [{ n: 42 }], [{ n: 9 }]]);
  });

  it('keeps what a batch wrote in its transaction, and a statement on its own afterwards is answered as before', async () => {
    const out = await batch(
      ['BEGIN'],
      ['CREATE TEMP TABLE batch_probe (n int)'],
      ['INSERT INTO batch_probe VALUES ($1), ($2)', [1, 2], 'batch_insert'],
      ['SELECT count(*)::int AS c FROM batch_probe'],
      ['COMMIT'],
    );
    expect(out.map(codeOf)).toEqual(Array(5).fill('answered'));
    expect(out[2]).toMatchObject({ value: { command: 'INSERT', rowCount: 2 } });
    expect(rowsOf(out[3])).toEqual([{ c: 2 }]);
    expect((await client.query('SELECT sum(n)::int AS s FROM batch_probe')).rows).toEqual([{ s: 3 }]);
  });
});
