import type { RowReader } from '../../db/store.js';
import type { ReadAhead } from './define-action.js';
import type { KnownRecord } from './ownership.js';

/**
 * Sends `read` at once, before the checks that run ahead of the handler, and answers the first identical read (same
 * SQL, same parameters) from it; every other read goes to the database as usual. If the read fails and no one asks
 * for its answer (a check refused the call first, so the handler never ran), the failure is dropped rather than
 * reported. The records the read names (the one it loads, the owners it joins) are known to the ownership checks
 * from its row (`known`), so they need not read them again.
 */
export function readingAhead(queryRow: RowReader, read: ReadAhead): { queryRow: RowReader; known: KnownRecord[] } {
  const sent = queryRow(read.sql, ...read.params) as Promise<Record<string, unknown> | undefined>;
  sent.catch(() => undefined);
  let pending: Promise<unknown> | undefined = sent;
  const reader: RowReader = (sqlText, ...params) => {
    if (pending && sameRead(read, sqlText, params)) {
      const answer = pending;
      pending = undefined;
      return answer as never;
    }
    const other = read.answers?.find((a) => sameRead(a, sqlText, params));
    if (other) {
      return sent.then((row) => {
        const answered = row && other.from(row);
        return answered ? answered.row : queryRow(sqlText, ...params);
      }) as never;
    }
    return queryRow(sqlText, ...params);
  };
  const known: KnownRecord[] = read.record ? [{ ...read.record, row: sent }] : [];
  for (const o of read.owners ?? [])
    known.push({ table: o.table, row: sent, ownerFrom: { column: o.column, via: o.via } });
  return { queryRow: reader, known };
}

const sameRead = (read: { sql: string; params: readonly unknown[] }, sqlText: string, params: readonly unknown[]) =>
  sqlText === read.sql && params.length === read.params.length && params.every((p, i) => p === read.params[i]);
