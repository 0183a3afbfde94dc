import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database as Schema } from './schema.js';
import { pendingMigrations, statementsFor } from './migration-files.js';
import { type RowBuilder, rowBuilder } from './row-builder.js';
import type { RowReader, Store } from './store.js';
import { GroupCommit, type GroupTransaction } from './group-commit.js';

export type { Db, Store } from './store.js';

export interface OpenOptions {
  path: string;
  /** FULL by default: a committed write survives power loss. NORMAL only for benchmarks that compare. */
  synchronous?: 'FULL' | 'NORMAL';
}

function configure(handle: Database.Database, synchronous: string) {
  handle.pragma('journal_mode = WAL');
  handle.pragma(`synchronous = ${synchronous}`);
  handle.pragma('foreign_keys = ON');
  handle.pragma('busy_timeout = 5000');
}

/**
 * A statement as Kysely's SQLite driver and the store use it. A statement that returns rows runs in better-sqlite3's
 * raw mode (each row an array) and its rows are built by a function made for its columns (db/row-builder.ts): about
 * twice as fast as better-sqlite3 setting every column by name, which is most of the time a 450-line list spends in
 * SQLite. The columns are learned once, and again whenever a row's width differs (the schema changed underneath).
 */
interface CachedStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  get(parameters: readonly unknown[]): unknown;
  run(parameters?: readonly unknown[]): Database.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

// better-sqlite3 binds an array of values as the values themselves, in order: no spreading them into arguments.
function cachedStatement(stmt: Database.Statement): CachedStatement {
  const run = (parameters: readonly unknown[] = []) => stmt.run(parameters);
  if (!stmt.reader) {
    return {
      reader: false,
      run,
      all: (parameters) => stmt.all(parameters),
      get: (parameters) => stmt.get(parameters),
      iterate: (parameters) => stmt.iterate(parameters),
    };
  }
  stmt.raw(true);
  let width = -1;
  let build: RowBuilder = () => ({});
  const toRow = (values: unknown[]) => {
    if (values.length !== width) {
      build = rowBuilder(stmt.columns().map((c) => c.name));
      width = values.length;
    }
    return build(values);
  };
  return {
    reader: true,
    run,
    all(parameters) {
      const rows = stmt.all(parameters) as unknown[][];
      const out = new Array<unknown>(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = toRow(rows[i]!);
      return out;
    },
    get(parameters) {
      const values = stmt.get(parameters) as unknown[] | undefined;
      return values === undefined ? undefined : toRow(values);
    },
    *iterate(parameters) {
      for (const values of stmt.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
    },
  };
}

/**
 * A better-sqlite3 handle whose `prepare` reuses statements by SQL text. Kysely prepares every query afresh, which
 * costs more than running it; the SQL texts our query builders produce are few, so the cache stays small (it is
 * cleared rather than grown past a bound, in case some caller builds unbounded IN lists).
 */
function cachingHandle(handle: Database.Database) {
  const cache = new Map<string, CachedStatement>();
  const prepare = (sqlText: string) => {
    let stmt = cache.get(sqlText);
    if (!stmt) {
      if (cache.size >= 2000) cache.clear();
      stmt = cachedStatement(handle.prepare(sqlText));
      cache.set(sqlText, stmt);
    }
    return stmt;
  };
  // Synchronous underneath: the promise only gives SQLite and PostgreSQL one interface.
  // A statement SQLite refuses rejects, as on PostgreSQL, instead of throwing before the caller holds a promise.
  const row: RowReader = (sqlText, ...params) => {
    try {
      return Promise.resolve(prepare(sqlText).get(params) as never);
    } catch (err) {
      return Promise.reject(err);
    }
  };
  return { prepare, row, close: () => handle.close(), handle };
}

/** Opens (creating and migrating) a database file. Always a file: the reader needs a second connection to it. */
export async function openStore(opts: OpenOptions): Promise<Store> {
  mkdirSync(dirname(opts.path), { recursive: true });
  const writerHandle = new Database(opts.path);
  configure(writerHandle, opts.synchronous ?? 'FULL');
  await migrate(writerHandle);
  const readerHandle = new Database(opts.path, { readonly: true });
  configure(readerHandle, opts.synchronous ?? 'FULL');
  const writer = cachingHandle(writerHandle);
  const reader = cachingHandle(readerHandle);
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: writer }) });
  const readDb = new Kysely<Schema>({ dialect: new SqliteDialect({ database: reader }) });
  // A statement run now, its outcome as a promise: SQLite's transaction statements are synchronous underneath.
  const run = (sqlText: string, params: readonly unknown[] = []) => {
    try {
      const stmt = writer.prepare(sqlText);
      return Promise.resolve(stmt.reader ? stmt.all(params as unknown[]) : stmt.run(params as unknown[]));
    } catch (err) {
      return Promise.reject(err);
    }
  };
  // Snapshots open on the reader: a read run alone waits for none, so it runs in one only when none is open.
  let snapshots = 0;
  const readSnapshot: Store['readSnapshot'] = (fn) =>
    readDb.connection().execute(async (conn) => {
      reader.prepare('BEGIN').run();
      snapshots++;
      try {
        return await fn(conn, reader.row);
      } finally {
        snapshots--;
        reader.prepare('COMMIT').run();
      }
    });
  const group = new GroupCommit((work) =>
    // Kysely's connection lock is held for the group, so nothing else runs on the writer meanwhile.
    db.connection().execute((conn) => {
      const tx: GroupTransaction = {
        conn,
        row: writer.row,
        begin: () => run('BEGIN IMMEDIATE'),
        savepoint: (n) => run(`SAVEPOINT w${n}`),
        rollbackToSavepoint: (n) => run(`ROLLBACK TO w${n}`).then(() => run(`RELEASE w${n}`)),
        commit: () => run('COMMIT'),
        rollback: () => run('ROLLBACK'),
        send: (query) =>
          run(query.sql, query.parameters).then((r) =>
            Array.isArray(r) ? r.length : (r as { changes: number }).changes,
          ),
      };
      return work(tx);
    }),
  );
  return {
    dialect: 'sqlite',
    db,
    readDb,
    readRow: reader.row,
    write: (fn, options) => group.run((tx, memo, later) => fn(tx.conn, tx.row, memo, later), options),
    // BEGIN/COMMIT as raw statements while Kysely's connection lock is held: one snapshot for the whole read.
    readSnapshot,
    readAlone: (fn) => readAlone(reader.row, () => snapshots > 0, fn, readSnapshot),
    location: opts.path,
    async close() {
      await db.destroy();
      await readDb.destroy();
      // Kysely closes a handle only if it used it itself; the row readers use them directly.
      writerHandle.close();
      readerHandle.close();
    },
  };
}

/**
 * Store.readAlone on SQLite: `fn`'s first statement runs at once, outside any transaction (one statement is atomic);
 * a second statement, any use of the query builder, or a statement while another read's snapshot is open on the
 * reader (it would see that older snapshot) refuses, and `fn` runs again in a snapshot, whatever it did with the
 * refusal.
 */
async function readAlone<T>(
  row: RowReader,
  snapshotOpen: () => boolean,
  fn: (db: Kysely<Schema>, queryRow: RowReader) => Promise<T>,
  inSnapshot: Store['readSnapshot'],
): Promise<T> {
  const run: AloneRun = { tripped: false, sent: false };
  const one: RowReader = (sqlText, ...params) => {
    if (run.sent || snapshotOpen()) return Promise.reject(refusal(run));
    run.sent = true;
    return row(sqlText, ...params);
  };
  try {
    const answer = await fn(new Proxy(run, REFUSES_BUILDER) as never, one);
    if (!run.tripped) return answer;
  } catch (err) {
    if (!run.tripped) throw err;
  }
  return inSnapshot(fn);
}

/** One read run alone: whether it sent its statement, and whether it asked for more (it then runs in a snapshot). */
interface AloneRun {
  tripped: boolean;
  sent: boolean;
}

/**
 * What a read run alone is refused with: one error made once, since nothing reads it but the run that then starts
 * again (a stack captured for each of the many lines read with something attached would be work thrown away).
 */
const REFUSED = new Error('A read run alone asked for more than one statement; it runs again in a snapshot.');

function refusal(run: AloneRun): Error {
  run.tripped = true;
  return REFUSED;
}

/** The query builder a read run alone is handed: any use of it refuses (one handler, shared by every run). */
const REFUSES_BUILDER: ProxyHandler<AloneRun> = {
  get(run) {
    throw refusal(run);
  },
};

/**
 * Applies pending numbered migrations (db/migrations/, in name order), each in its own immediate transaction. Returns
 * the versions applied. A migration another process applied meanwhile is skipped.
 */
export async function migrate(handle: Database.Database): Promise<number[]> {
  handle.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const done = new Set(
    (handle.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const applied: number[] = [];
  for (const m of await pendingMigrations(done)) {
    const ran = handle
      .transaction(() => {
        if (handle.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(m.version)) return false;
        for (const s of statementsFor(m, 'sqlite')) handle.exec(s);
        handle
          .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(m.version, m.name, new Date().toISOString());
        return true;
      })
      .immediate();
    if (ran) applied.push(m.version);
  }
  return applied;
}
