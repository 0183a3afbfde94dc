import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database as Schema } from './schema.js';
import { pendingMigrations, statementsFor } from './migration-files.js';
import { GroupCommit, type GroupTransaction } from './group-commit.js';
import { Batch } from './pg-batch.js';
import { Statement, type StatementResult } from './pg-statement.js';
import type { Db, RowReader, Store } from './store.js';

/**
 * The PostgreSQL store (STUDIO_DATABASE_URL=postgres://…): the same tables, migrations and guarantees as the SQLite
 * file, for hosts that serve many studios or run several server processes on one database.
 *
 * - Writes keep SQLite's model: one writer connection per process, group commit (one COMMIT, so one WAL flush, for
 *   every write that arrived meanwhile, each in its own savepoint), and a transaction-level advisory lock taken at
 *   BEGIN that serialises write groups across every process on the database. So a version check, the idempotency
 *   record and the studio's audit-chain head are read and written with no other writer in between, exactly as under
 *   SQLite's BEGIN IMMEDIATE, and two processes behave as one server.
 * - Reads use a pool of their own; a query's snapshot is a REPEATABLE READ, READ ONLY transaction.
 * - Raw one-row reads (the hot path) are named prepared statements, `?` rewritten to `$n`.
 */

/** The advisory lock key every write group takes: "studio" in ASCII, an arbitrary constant unique to this server. */
export const WRITER_LOCK = 0x73747564696f;
/** The advisory lock key migrations take, so processes starting together apply each migration once. */
const MIGRATION_LOCK = WRITER_LOCK + 1;

// COUNT(*) and other bigints arrive as strings by default; every count here fits a JavaScript number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * `?` placeholders (the portable form the code writes) as PostgreSQL's `$1 … $n`; the SQL holds no literal `?`. The
 * raw texts are few and fixed, so each is rewritten once (past a bound, a caller building texts, without keeping it);
 * statementFor then names it like any other parameterised text.
 */
const placeholders = new Map<string, string>();
function forPostgres(sqlText: string): string {
  let text = placeholders.get(sqlText);
  if (text === undefined) {
    let n = 0;
    text = sqlText.replace(/\?/g, () => `$${++n}`);
    if (placeholders.size < 2000) placeholders.set(sqlText, text);
  }
  return text;
}

/** The URL with any password hidden, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

/** Names for the parameterised statements the query builder writes: the same few shapes, again and again. */
const statementNames = new Map<string, string>();

/**
 * Ends a connection's read-only snapshot: the COMMIT goes out with the next statement anyone sends on it, in the same
 * socket write (pg-pool lends the connection released last first, so under load that is soon), or on its own at the
 * end of this turn of the event loop, so no snapshot stays open while the connection sits idle.
 */
const endSnapshot = new WeakMap<pg.PoolClient, () => void>();

/**
 * Connections holding a write group's open transaction: the statements each turn sends leave as one Batch, ended by
 * one Sync (db/pg-batch.ts). Only inside that transaction, where statements without a Sync between them change nothing.
 */
const batchingOn = new WeakSet<pg.PoolClient>();
/** Sends a connection's pending batch now: what is queued after it starts a batch of its own. */
const endBatch = new WeakMap<pg.PoolClient, () => void>();

/**
 * Tunes each new connection's `query`:
 * - The store's statements run as Statements (statementFor): named prepared statements, described once per connection.
 * - Statements sent in the same turn of the event loop leave in one socket write: the socket is corked at the first and
 *   uncorked once the turn's promise continuations have run (process.nextTick). A pipelined connection sends several
 *   statements at once (a write's audit INSERT and UPDATE with the next write's savepoint and reads), and a loopback
 *   socket write costs about as much CPU as a whole small statement's client work.
 * - Inside a write group's transaction, those statements also share one Sync (a Batch), so PostgreSQL answers them in
 *   one socket write too.
 */
function tuneConnection(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
  let corked = false;
  // This turn's statements, while the connection holds a write group's transaction (batchingOn): one Batch at the end.
  let batch: Statement[] | undefined;
  const sendBatch = () => {
    if (!batch) return;
    const statements = batch;
    batch = undefined;
    query(statements.length === 1 ? statements[0] : new Batch(statements));
  };
  endBatch.set(client, sendBatch);
  const uncork = () => {
    sendBatch();
    corked = false;
    stream.uncork();
  };
  let commitDue = false;
  const commitNow = () => {
    if (!commitDue) return;
    commitDue = false;
    (client.query('COMMIT') as Promise<unknown>).catch(() => undefined);
  };
  endSnapshot.set(client, () => {
    commitDue = true;
    setImmediate(commitNow);
  });
  (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    if (commitDue) commitNow();
    const statement = statementFor(config, values, callback);
    if (!statement) {
      // Anything else goes after the statements before it.
      sendBatch();
      return query(config, values, callback);
    }
    const send = batchingOn.has(client) ? () => (batch ??= []).push(statement) : () => query(statement);
    if (typeof callback === 'function') return void send();
    return new Promise<StatementResult>((resolve, reject) => {
      statement.callback = (err, result) => (err ? reject(err) : resolve(result!));
      send();
    });
  };
}

/**
 * The store's statements as Statements (db/pg-statement.ts): text with optional values, as Kysely and the raw readers
 * send them, every parameterised one named by its text so PostgreSQL parses and plans each shape once per connection
 * (the query builder's texts are a small fixed set; texts past a bound, IN lists of many lengths, run unnamed).
 * Anything else (a config with options of its own) is left to pg.
 */
function statementFor(config: unknown, values: unknown, callback: unknown): Statement | undefined {
  let text: string;
  let name: string | undefined;
  if (typeof config === 'string') {
    text = config;
  } else if (config && typeof config === 'object' && onlySimpleKeys(config)) {
    ({ text, name } = config as { text: string; name?: string });
    values ??= (config as { values?: unknown }).values;
    if (typeof text !== 'string') return undefined;
  } else {
    return undefined;
  }
  if (typeof values === 'function') {
    callback = values;
    values = undefined;
  }
  if (values !== undefined && !Array.isArray(values)) return undefined;
  if (values?.length && name === undefined) {
    name = statementNames.get(text);
    if (!name && statementNames.size < 5000) statementNames.set(text, (name = `studio_s${statementNames.size + 1}`));
  }
  const answer = typeof callback === 'function' ? (callback as Statement['callback']) : () => undefined;
  return new Statement(text, values as unknown[] | undefined, name, answer);
}
/** A config of text, values and name only (what the store sends); anything more is pg's to interpret. */
function onlySimpleKeys(config: object): boolean {
  for (const k in config) if (k !== 'text' && k !== 'values' && k !== 'name') return false;
  return true;
}

export interface PostgresOptions {
  url: string;
  /** Reader connections per process (default 8). */
  readers?: number;
}

/**
 * A query builder on one pooled connection, for as long as it is lent: Kysely's own pool would hand out any of them,
 * and a write group or a snapshot must stay on its own. One per connection, kept while the connection lives.
 */
const boundBuilders = new WeakMap<pg.PoolClient, Db>();
function builderOn(client: pg.PoolClient): Db {
  let db = boundBuilders.get(client);
  if (!db) {
    const lease = {
      query: (...args: unknown[]) => (client.query as (...a: unknown[]) => unknown)(...args),
      release() {},
    };
    db = new Kysely<Schema>({
      dialect: new PostgresDialect({ pool: { connect: async () => lease, end: async () => {} } as never }),
    });
    boundBuilders.set(client, db);
  }
  return db;
}

/** Raw one-row reads straight on a connection: named prepared statements, no query builder in between. */
const rowsOn =
  (client: pg.PoolClient): RowReader =>
  async (sqlText, ...params) => {
    const res = await client.query(forPostgres(sqlText), params);
    return res.rows[0];
  };

const WRITER_LOCK_SQL = `SELECT pg_advisory_xact_lock(${WRITER_LOCK})`;

/**
 * A write group's transaction on the writer connection. The connection pipelines (pg's `pipeline` mode: statements are
 * written without waiting for the answers before them, and answered in order), so the group commit sends the last
 * write's unchecked statements with this write's SAVEPOINT and first reads, and BEGIN with the writer lock, each in
 * one round trip. `broken` is set when even ROLLBACK failed: the connection is then discarded rather than lent again.
 */
function groupTransaction(client: pg.PoolClient, broken: { error?: unknown }): GroupTransaction {
  const run = (text: string) => client.query(text);
  // A rollback starts a batch of its own: behind a statement that fails in the same batch, it would not run at all.
  const sendPending = () => endBatch.get(client)!();
  return {
    conn: builderOn(client),
    row: rowsOn(client),
    begin: () => Promise.all([run('BEGIN'), run(WRITER_LOCK_SQL)]),
    savepoint: (n) => run(`SAVEPOINT w${n}`),
    rollbackToSavepoint: (n) => {
      sendPending();
      return Promise.all([run(`ROLLBACK TO w${n}`), run(`RELEASE w${n}`)]);
    },
    async commit() {
      // PostgreSQL answers COMMIT of an aborted transaction with ROLLBACK, not an error.
      const res = await run('COMMIT');
      if (res.command !== 'COMMIT') throw new Error(`The write group's COMMIT was answered ${res.command}.`);
    },
    rollback: () => {
      sendPending();
      return run('ROLLBACK').catch((err: unknown) => {
        broken.error = err;
        throw err;
      });
    },
    send: (query) => client.query(query.sql, [...query.parameters]).then((r) => r.rowCount ?? 0),
  };
}

export async function openPostgresStore(opts: PostgresOptions): Promise<Store> {
  // `pipeline`: a connection sends statements without waiting for the answers to those before (see groupTransaction).
  const writerPool = new pg.Pool({ connectionString: opts.url, max: 1, pipeline: true } as pg.PoolConfig);
  const readerPool = new pg.Pool({
    connectionString: opts.url,
    max: opts.readers ?? 8,
    pipeline: true,
  } as pg.PoolConfig);
  // An idle connection the server drops (a restart, an administrator) is discarded by the pool and replaced on next
  // use; without a listener its 'error' would end the process.
  for (const pool of [writerPool, readerPool]) {
    pool.on('error', () => undefined);
    pool.on('connect', tuneConnection);
  }
  try {
    await migratePostgres(writerPool);
  } catch (err) {
    await Promise.allSettled([writerPool.end(), readerPool.end()]);
    throw err;
  }
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: writerPool }) });
  const readDb = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: readerPool }) });
  const group = new GroupCommit(async (work) => {
    const client = await writerPool.connect();
    const broken: { error?: unknown } = {};
    batchingOn.add(client);
    try {
      await work(groupTransaction(client, broken));
    } finally {
      batchingOn.delete(client);
      client.release(broken.error as Error | undefined);
    }
  });
  const readRow: RowReader = async (sqlText, ...params) => {
    const res = await readerPool.query(forPostgres(sqlText), params);
    return res.rows[0];
  };
  return {
    dialect: 'postgres',
    db,
    readDb,
    readRow,
    write: (fn, options) => group.run((tx, memo, later) => fn(tx.conn, tx.row, memo, later), options),
    async readSnapshot(fn) {
      const client = await readerPool.connect();
      // BEGIN goes out with the read's first statements, in one round trip; its answer comes before theirs.
      const begun = client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      begun.catch(() => undefined);
      try {
        const result = await fn(builderOn(client), rowsOn(client));
        // Reads made outside a snapshot could disagree with each other: a failed BEGIN fails the read.
        await begun;
        return result;
      } finally {
        // Not awaited: a read-only transaction has nothing to make durable, and whoever takes this connection next is
        // answered after it (endSnapshot). A COMMIT that fails means a lost connection, which the pool then replaces.
        endSnapshot.get(client)!();
        client.release();
      }
    },
    location: redactedUrl(opts.url),
    async close() {
      await db.destroy();
      await readDb.destroy();
      // A Kysely ends its pool only if it ran a query itself, and most reads and every write here use the pools
      // directly: left open, their idle connections kept a finished process (the demo's seeding child, a CLI
      // command) alive for the pool's idle timeout, ten seconds.
      await Promise.all([writerPool, readerPool].map((pool) => (pool.ending ? undefined : pool.end())));
    },
  };
}

/**
 * Applies pending migrations (db/migrations/, in name order) in one transaction under an advisory lock: PostgreSQL's
 * DDL is transactional, so a failed migration leaves nothing behind, and a second process starting at the same moment
 * waits, then finds nothing to do. Returns the versions applied.
 */
export async function migratePostgres(pool: pg.Pool): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const applied: number[] = [];
    for (const m of await pendingMigrations(done)) {
      for (const s of statementsFor(m, 'postgres')) await client.query(s);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

export type { Db };
