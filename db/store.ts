import { type CompiledQuery, type Kysely, PostgresAdapter } from 'kysely';
import type { Database as Schema } from './schema.js';

export type Db = Kysely<Schema>;

/** The database engines the server runs on: an embedded SQLite file by default, PostgreSQL for larger hosts. */
export type Dialect = 'sqlite' | 'postgres';

/**
 * One row of a raw SQL read, `?` placeholders, on a given connection (its open transaction or snapshot): the hot
 * path's escape from the query builder, whose cost exceeds a one-row query's. The SQL must be portable between the
 * dialects; the store rewrites placeholders for PostgreSQL and caches prepared statements.
 */
export type RowReader = <T extends object = Record<string, unknown>>(
  sqlText: string,
  ...params: unknown[]
) => Promise<T | undefined>;

/**
 * Values one write group keeps between its writes (an audit chain's head): valid while the group holds the writer
 * lock, so no other writer, in this process or another, can change what they describe; cleared when a write of the
 * group rolls back.
 */
export type GroupMemo = Map<string, unknown>;

/**
 * Sends a write's statement whose result the write does not read (an audit event's INSERT, an idempotency record, a
 * versioned UPDATE) at once, behind every statement the write sent before it, without waiting for it: the group
 * commit checks it before the write settles, and its failure fails the write (rolled back to its savepoint) exactly as
 * if it had been awaited. `check` is given the number of rows it affected and may throw (a versioned UPDATE that
 * matched no row: VERSION_CONFLICT), which fails the write the same way. On PostgreSQL the statement shares a round
 * trip with those that follow it; on SQLite it has run when this returns.
 */
export type SendLater = (query: CompiledQuery, check?: (affectedRows: number) => void) => void;

/**
 * Where a write's statements go: its transaction, and inside a write group the group's memo and `later`. Steps that
 * append rows (audit events, idempotency records) take this one object rather than its parts.
 */
export interface WriteChannel {
  db: Db;
  memo?: GroupMemo;
  later?: SendLater;
}

export interface WriteOptions {
  /**
   * The write keeps nothing outside its transaction (no state it changes elsewhere, no effect it causes before it
   * returns), so the group commit may run it again from the start. It may then begin before the write ahead of it in
   * its group has been checked, sharing that write's round trip; should that write fail after all, this one is undone
   * with it and runs again. Every `invoke` write is repeatable; other writes wait their turn.
   */
  repeatable?: boolean;
}

/** The database behind the server: one interface over SQLite and PostgreSQL. */
export interface Store {
  dialect: Dialect;
  /** The writer connection. Mutations reach it only through `write`, inside one transaction. */
  db: Db;
  /** Reads: they see committed data only and never wait behind writes. */
  readDb: Db;
  /** A raw one-row read on a reader connection of its own, outside any snapshot (authentication). */
  readRow: RowReader;
  /**
   * Runs `fn` in a write transaction, grouped with concurrent writes into one commit (see GroupCommit); `queryRow`
   * reads on the same transaction; `later` sends a statement whose result `fn` does not need.
   */
  write<T>(
    fn: (tx: Db, queryRow: RowReader, memo: GroupMemo, later: SendLater) => Promise<T>,
    options?: WriteOptions,
  ): Promise<T>;
  /**
   * Runs `fn` against one consistent snapshot of the reader; `queryRow` reads on the same connection, so a read never
   * holds one pooled connection while waiting for another.
   */
  readSnapshot<T>(fn: (db: Db, queryRow: RowReader) => Promise<T>): Promise<T>;
  /**
   * A read expected to need one statement (a record by id): `fn` runs with no snapshot opened (one statement is
   * atomic), and runs again in `readSnapshot` as soon as it asks for a second statement or for `db`, whatever it did
   * with the refusal. A store without it (PostgreSQL) reads such reads in `readSnapshot`.
   */
  readAlone?<T>(fn: (db: Db, queryRow: RowReader) => Promise<T>): Promise<T>;
  /** Where the data lives, for messages: a file path or a URL without its password. */
  location: string;
  close(): Promise<void>;
}

/**
 * Which dialect a query builder speaks, for the few statements written twice (the line-code allocator): code that
 * holds only a transaction or snapshot still knows whose SQL to write. (getExecutor is marked internal in Kysely's
 * types but is how every Kysely instance, transactions included, reaches its adapter; a test on both dialects pins it.)
 */
export const dialectOf = (db: Kysely<Schema>): Dialect =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
