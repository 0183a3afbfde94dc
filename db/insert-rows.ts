import { CompiledQuery, type Insertable } from 'kysely';
import type { Database as Schema } from './schema.js';
import { dialectOf, type Db } from './store.js';

/**
 * An INSERT of rows that all have the same columns, compiled by the query builder once per dialect, table, columns and
 * row count, and reused with each new set of values: the hot path's inserts (an audit event, an idempotency record)
 * have one shape, and building and compiling the query tree costs more CPU than running the statement does.
 *
 * The first time a shape is seen it is compiled as Kysely would (so the SQL is the builder's own, quoting and
 * placeholders per dialect), and its parameters are checked against the values in column order; a shape whose
 * parameters are not simply its values (a value the builder turns into SQL) is never kept.
 */
const shapes = new Map<string, string | null>();

export function insertRows<T extends keyof Schema & string>(
  db: Db,
  table: T,
  rows: readonly Insertable<Schema[T]>[],
): CompiledQuery {
  const first = rows[0] as Record<string, unknown> | undefined;
  if (!first) throw new Error(`insertRows: no rows for ${table}.`);
  const columns = Object.keys(first);
  const values: unknown[] = [];
  for (const row of rows as readonly Record<string, unknown>[]) {
    for (const c of columns) {
      const v = row[c];
      // undefined leaves a column out of one row (DEFAULT): a shape of its own, compiled every time.
      if (v === undefined)
        return db
          .insertInto(table)
          .values(rows as never)
          .compile();
      values.push(v);
    }
    if (Object.keys(row).length !== columns.length)
      return db
        .insertInto(table)
        .values(rows as never)
        .compile();
  }
  const key = `${dialectOf(db)}\u0000${table}\u0000${rows.length}\u0000${columns.join(',')}`;
  const known = shapes.get(key);
  if (known) return CompiledQuery.raw(known, values);
  const compiled = db
    .insertInto(table)
    .values(rows as never)
    .compile();
  if (known === undefined && shapes.size < 500) {
    const plain =
      compiled.parameters.length === values.length && compiled.parameters.every((p, i) => Object.is(p, values[i]));
    shapes.set(key, plain ? compiled.sql : null);
  }
  return compiled;
}
