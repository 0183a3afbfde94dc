import type { RowReader } from '../../db/store.js';
import type { ReadAhead } from './define-action.js';
import type { KnownRecord } from './ownership.js';

/**
 * Sends `read` now and answers the first identical read (same SQL, same parameters) from it; every other read goes
 * through. Its failure, if nobody asks for it, is nobody's: the handler never got that far. The records the read names
 * (the one it answers, the owners it joins) are known to the ownership check from its row (`known`).
 */
export function readingAhead(queryRow: RowReader, read: ReadAhead): { queryRow: RowReader; known: KnownRecord[] } {
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
  const known: KnownRecord[] = read.record ? [{ ...read.record, row: sent }] : [];
  for (const o of read.owners ?? [])
    known.push({ table: o.table, row: sent, ownerFrom: { column: o.column, via: o.via } });
  return { queryRow: reader, known };
}
