import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { DEFAULT_PAGE_SIZE } from '../../core/values.js';
import { decodeCursor, encodeCursor } from './cursor.js';

/** One column of a keyset sort. */
export interface SortColumn {
  /** The column compared and ordered by, qualified (`lines.code`) where a join makes a bare name ambiguous. */
  column: string;
  /** The property of a fetched row holding the column's value; by default the column's name without its table. */
  field?: string;
  desc?: boolean;
  /** For a column that may be NULL: compare and order by COALESCE(column, nullAs), so the order stays total. */
  nullAs?: string | number;
}

/** An order a list can be paged in. Cursors carry its name, so a cursor from another sort is refused. */
export interface KeysetSort {
  name: string;
  /** Most significant first; the last column is unique (the tie-breaker, usually id). */
  columns: readonly SortColumn[];
}

/** A page request as lists take it: the previous page's nextCursor and a page size. */
export interface PageRequest {
  cursor?: string | undefined;
  limit?: number | undefined;
}

export type SortName<K extends string> = K | `-${K}`;

/**
 * A sort from its columns, most significant first, the last unique: `'-projects.created_at'` is that column
 * descending; a SortColumn says more (the row field holding the value, a NULL stand-in).
 */
export function keysetSort(name: string, ...columns: Array<string | SortColumn>): KeysetSort {
  return {
    name,
    columns: columns.map((c) =>
      typeof c !== 'string' ? c : c.startsWith('-') ? { column: c.slice(1), desc: true } : { column: c },
    ),
  };
}

/**
 * Named sorts for a collection: `name` ascending and `-name` descending for every field, each followed by the
 * tie-breaker in the same direction. The names come out in that order (`code`, `-code`, `heading` …).
 */
export function namedSorts<K extends string>(
  fields: Record<K, Omit<SortColumn, 'desc'>>,
  tieBreaker: Omit<SortColumn, 'desc'>,
): Record<SortName<K>, KeysetSort> {
  const sorts = {} as Record<SortName<K>, KeysetSort>;
  for (const [name, column] of Object.entries(fields) as Array<[K, SortColumn]>) {
    sorts[name] = { name, columns: [column, tieBreaker] };
    sorts[`-${name}`] = {
      name: `-${name}`,
      columns: [
        { ...column, desc: true },
        { ...tieBreaker, desc: true },
      ],
    };
  }
  return sorts;
}

/** The names of a set of named sorts, in their order, for the input schema's enum. */
export const sortNames = <N extends string>(sorts: Record<N, KeysetSort>) => Object.keys(sorts) as N[];

const sortValue = (c: SortColumn): RawBuilder<unknown> =>
  c.nullAs === undefined ? sql`${sql.ref(c.column)}` : sql`coalesce(${sql.ref(c.column)}, ${c.nullAs})`;

/** Rows strictly after `key` in the sort: (a > ?) OR (a = ? AND b > ?) …, each column in its own direction. */
function after(columns: readonly SortColumn[], key: readonly unknown[]): RawBuilder<SqlBool> {
  const bound = (i: number) => key[i] ?? columns[i]!.nullAs ?? null;
  const terms = columns.map((c, i) => {
    const equal = columns.slice(0, i).map((p, j) => sql`${sortValue(p)} = ${bound(j)}`);
    const beyond = sql`${sortValue(c)} ${sql.raw(c.desc ? '<' : '>')} ${bound(i)}`;
    return sql`(${sql.join([...equal, beyond], sql` AND `)})`;
  });
  return sql<SqlBool>`(${sql.join(terms, sql` OR `)})`;
}

function keyOf(row: object, columns: readonly SortColumn[]): unknown[] {
  return columns.map((c) => {
    const field = c.field ?? c.column.slice(c.column.lastIndexOf('.') + 1);
    if (!(field in row)) throw new Error(`The rows of this list have no ${field} for sorting by ${c.column}.`);
    return (row as Record<string, unknown>)[field] ?? null;
  });
}

/**
 * One page of a query in a keyset sort. The cursor holds the last row's sort key (opaque, see cursor.ts), so pages
 * stay stable while rows are added or moved; a cursor from another sort, or an altered one, is refused with
 * VALIDATION_FAILED. The query brings its own filters; this adds the keyset condition, the order and the limit.
 * `pageSize` is the page when the request names no limit: the one the list publishes (a listing's `page` passes it).
 */
export async function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  sort: KeysetSort,
  page: PageRequest,
  pageSize = DEFAULT_PAGE_SIZE,
): Promise<{ rows: O[]; nextCursor: string | null }> {
  const limit = page.limit ?? pageSize;
  let qb = query;
  if (page.cursor) qb = qb.where(after(sort.columns, decodeCursor(page.cursor, sort.name, sort.columns.length)));
  for (const c of sort.columns) qb = qb.orderBy(sortValue(c), c.desc ? 'desc' : 'asc');
  const fetched = (await qb.limit(limit + 1).execute()) as O[];
  if (fetched.length <= limit) return { rows: fetched, nextCursor: null };
  const rows = fetched.slice(0, limit);
  return { rows, nextCursor: encodeCursor(sort.name, keyOf(rows.at(-1)!, sort.columns)) };
}
