import type { RowReader } from '../../db/store.js';
import type { ReadAhead } from './define-action.js';
import type { KnownRecord } from './ownership.js';

/**
 * Sends `read` at once, before the checks that run ahead of the handler, and answers the first identical read (same
 * SQL, same parameters) from it; every other read goes to the database as usual. If the read fails and no one asks
 * for its answer (a check refused the call first, so the handler never ran), the failure is dropped rather than
 * reported. When the read names the record it loads (`read.record`), the ownership check of that record takes its
 * row from the same answer (`known`).
 */
export function readingAhead(queryRow: RowReader, read: ReadAhead): { queryRow: RowReader; known?: KnownRecord } {
  const sent = queryRow(read.sql, ...read.params) as Promise<Record<string, unknown> | undefined>;
  sent.catch(() => undefined);
  let pending: Promise<unknown> | undefined = sent;
  const reader: RowReader = (sqlText, ...params) => {
    if (
      pending &&
      sqlText === read.sql &&
      params.length === read.params.length &&
      params.every((p, i) => p === read.params[i])
    ) {
      const answer = pending;
      pending = undefined;
      return answer as never;
    }
    return queryRow(sqlText, ...params);
  };
  return { queryRow: reader, ...(read.record ? { known: { ...read.record, row: sent } } : {}) };
}
