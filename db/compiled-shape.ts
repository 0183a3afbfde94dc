import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { Database as Schema } from './schema.js';
import { dialectOf, type Db } from './store.js';

/**
 * Statements of a fixed shape, compiled by the query builder once per dialect and shape, then reused with each new set
 * of values: the hot path's writes (an audit event's INSERT, a versioned UPDATE) take the same few shapes again and
 * again, and building and compiling the query tree costs more of the server's CPU than the statement costs the
 * database.
 *
 * The first time a shape is seen it is compiled as the query builder would (so the SQL is its own, quoting and
 * placeholders per dialect), and its parameters are compared with the values the caller says it binds, in order; a
 * shape whose parameters are not exactly those values (a value the builder turns into SQL) is never kept, and is
 * compiled every time.
 */
const shapes = new Map<string, string | null>();

export function compiledShape(
  db: Db,
  shape: string,
  values: readonly unknown[],
  compile: () => CompiledQuery,
): CompiledQuery {
  const key = `${dialectOf(db)}\u0000${shape}`;
  const known = shapes.get(key);
  if (known) return CompiledQuery.raw(known, [...values]);
  const compiled = compile();
  if (known === undefined && shapes.size < 1000) {
    const plain =
      compiled.parameters.length === values.length && compiled.parameters.every((p, i) => Object.is(p, values[i]));
    shapes.set(key, plain ? compiled.sql : null);
  }
  return compiled;
}

/** An INSERT of rows that all have the same columns (a row leaving one out, for its DEFAULT, is compiled every time). */
export function insertRows<T extends keyof Schema & string>(
  db: Db,
  table: T,
  rows: readonly Insertable<Schema[T]>[],
): CompiledQuery {
  const first = rows[0] as Record<string, unknown> | undefined;
  if (!first) throw new Error(`insertRows: no rows for ${table}.`);
  const compile = () =>
    db
      .insertInto(table)
      .values(rows as never)
      .compile();
  const columns = Object.keys(first);
  const values: unknown[] = [];
  for (const row of rows as readonly Record<string, unknown>[]) {
    if (Object.keys(row).length !== columns.length) return compile();
    for (const c of columns) {
      const v = row[c];
      if (v === undefined) return compile();
      values.push(v);
    }
  }
  return compiledShape(db, `insert\u0000${table}\u0000${rows.length}\u0000${columns.join(',')}`, values, compile);
}

/**
 * `UPDATE table SET … WHERE id = ? AND version = ?`: a versioned write's statement. Columns set to undefined are left
 * out, as the query builder leaves them.
 */
export function updateVersioned(
  db: Db,
  table: string,
  set: Record<string, unknown>,
  id: string,
  version: number,
): CompiledQuery {
  const entries = Object.entries(set).filter(([, v]) => v !== undefined);
  // The table is one of the versioned ones; the query builder cannot follow that through a string.
  const versioned = db as unknown as Kysely<Record<string, { id: string; version: number }>>;
  const compile = () =>
    versioned
      .updateTable(table)
      .set(Object.fromEntries(entries) as never)
      .where('id', '=', id)
      .where('version', '=', version)
      .compile();
  return compiledShape(
    db,
    `update\u0000${table}\u0000${entries.map(([k]) => k).join(',')}`,
    [...entries.map(([, v]) => v), id, version],
    compile,
  );
}
