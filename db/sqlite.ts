import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Transaction } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database as Schema } from './schema.js';
import { MIGRATIONS } from './migrations/index.js';

export type Db = Kysely<Schema>;
export type Tx = Transaction<Schema> | Kysely<Schema>;

export interface Store {
  db: Db;
  /** A second, read-only connection for hot reads with raw prepared statements; it sees committed data only. */
  reader: Database.Database;
  /** A cached prepared statement on the reader connection. */
  read(sqlText: string): Database.Statement;
  path: string;
  close(): Promise<void>;
}

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

/** Opens (creating and migrating) a database file. Always a file: the reader needs a second connection to it. */
export async function openStore(opts: OpenOptions): Promise<Store> {
  mkdirSync(dirname(opts.path), { recursive: true });
  const writer = new Database(opts.path);
  configure(writer, opts.synchronous ?? 'FULL');
  migrate(writer);
  const reader = new Database(opts.path, { readonly: true });
  configure(reader, opts.synchronous ?? 'FULL');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: writer }) });
  const statements = new Map<string, Database.Statement>();
  return {
    db,
    reader,
    read(sqlText) {
      let s = statements.get(sqlText);
      if (!s) statements.set(sqlText, (s = reader.prepare(sqlText)));
      return s;
    },
    path: opts.path,
    async close() {
      await db.destroy();
      if (reader.open) reader.close();
    },
  };
}

/** Applies pending numbered migrations, each in its own immediate transaction. Returns the versions applied. */
export function migrate(handle: Database.Database): number[] {
  handle.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const done = new Set(
    (handle.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    if (done.has(m.version)) continue;
    handle
      .transaction(() => {
        for (const s of m.statements) handle.exec(s);
        handle
          .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(m.version, m.name, new Date().toISOString());
      })
      .immediate();
    applied.push(m.version);
  }
  return applied;
}

/**
 * Runs `fn` in one write transaction begun IMMEDIATE (so the busy timeout applies and no deferred upgrade fails).
 * The connection is held for the whole callback: other queries wait, and nothing uncommitted is seen outside.
 */
export async function writeTransaction<T>(db: Db, fn: (tx: Kysely<Schema>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (err) {
      await sql`ROLLBACK`.execute(conn);
      throw err;
    }
  });
}
