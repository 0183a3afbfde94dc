import type { SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import { refTo } from '../../core/schema-marks.js';
import { Cursor, DEFAULT_PAGE_SIZE, Id, pageLimit } from '../../core/values.js';
import { PROJECT } from '../projects/entity.js';
import { ARCHIVED_FILTERS } from './filters.js';
import { type KeysetSort, keysetPage, sortNames } from './keyset-page.js';

/**
 * A listing's query declared once, in its domain beside its sorts: the filters it takes, in the order callers see
 * them, then `sort` (one of its named sorts) and the page (cursor, limit). The action takes `input` as its input and
 * the domain's list function takes `ListingQuery<typeof …>`, so a filter added here reaches both. Its page size is
 * declared here too: `limit`'s published default and the page `page` reads are that one number.
 */

/**
 * Keyset paging, as every list takes it: the previous page's nextCursor, and a page size whose published default is
 * `pageSize`. A list that pages without defineListing passes the same number to keysetPage (or pages at the default).
 */
export const pageQuery = (pageSize = DEFAULT_PAGE_SIZE) => ({
  cursor: Cursor.optional(),
  limit: pageLimit(pageSize).optional(),
});

/** Whether a list shows archived records; `records` names them in the description, e.g. "lines". */
export const archivedFilter = (records: string) =>
  z.enum(ARCHIVED_FILTERS).optional().describe(`Archived ${records}: excluded by default.`);

/** A `q` filter: a piece of text to find (case-insensitive) in the fields `where` names, e.g. "name or email". */
export const textFilter = (where: string, max = 200) =>
  z.string().min(1).max(max).optional().describe(`Text to find in ${where}.`);

/** The project a project's list is of: the first field of every such listing. */
export const projectScope = { projectId: refTo(Id, PROJECT) };

export interface ListingSpec<F extends z.ZodRawShape, N extends string> {
  filters: F;
  sorts: Record<N, KeysetSort>;
  /** The order when the caller names none: one of `sorts`, or an order of its own (a schedule's document order). */
  defaultSort: NoInfer<N> | KeysetSort;
  /** The default as the `sort` description says it, when its name alone does not ("-createdAt (newest first)"). */
  defaultSays?: string;
  /** The page when the caller sends no limit; 500 (DEFAULT_PAGE_SIZE) unless the listing's rows are large. */
  pageSize?: number;
}

export function defineListing<const F extends z.ZodRawShape, N extends string>(spec: ListingSpec<F, N>) {
  const says = spec.defaultSays ?? (typeof spec.defaultSort === 'string' ? spec.defaultSort : undefined);
  if (says === undefined) throw new Error('A listing whose default order is unnamed says it in defaultSays.');
  const pageSize = spec.pageSize ?? DEFAULT_PAGE_SIZE;
  const input = z.strictObject({
    ...spec.filters,
    sort: z.enum(sortNames(spec.sorts)).optional().describe(`Default: ${says}.`),
    ...pageQuery(pageSize),
  });
  /** The keyset sort a query asks for, or the default. */
  const sortOf = (query: { sort?: N | undefined }): KeysetSort =>
    query.sort
      ? spec.sorts[query.sort]
      : typeof spec.defaultSort === 'string'
        ? spec.sorts[spec.defaultSort]
        : spec.defaultSort;
  return {
    input,
    pageSize,
    sortOf,
    /** One page of `qb` (its filters applied) in the query's sort, `pageSize` rows unless the query names a limit. */
    page: <DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>, query: ListingPage<N>) =>
      keysetPage(qb, sortOf(query), query, pageSize),
  };
}

/** What a listing's `page` reads of a query: its sort and its page. */
interface ListingPage<N extends string> {
  sort?: N | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

/** A listing's query as its domain function receives it (parsed: defaults applied, refs proven). */
export type ListingQuery<L extends { input: z.ZodType }> = z.output<L['input']>;
