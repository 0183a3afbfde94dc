import { type SelectQueryBuilder, sql } from 'kysely';

/** Whether a list shows archived records: excluded unless asked (`include` shows both, `only` just them). */
export const ARCHIVED_FILTERS = ['exclude', 'include', 'only'] as const;
export type ArchivedFilter = (typeof ARCHIVED_FILTERS)[number];

/**
 * Applies a list's `archived` filter to its query: `column` is the records' archived_at (qualified where a join makes
 * the bare name ambiguous). Every collection of archivable records takes the same three answers.
 */
export function whereArchived<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  column: string,
  archived: ArchivedFilter | undefined,
): SelectQueryBuilder<DB, TB, O> {
  const a = archived ?? 'exclude';
  if (a === 'include') return query;
  return query.where(sql<boolean>`${sql.ref(column)} ${sql.raw(a === 'exclude' ? 'is null' : 'is not null')}`);
}
