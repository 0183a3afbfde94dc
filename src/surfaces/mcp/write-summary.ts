import { PAGE_BYTES } from '../../core/result-size.js';

/** What an agent needs to go on after a write: each touched record's id and version, and how to recognise it. */
const KEPT = ['id', 'version', 'code', 'heading', 'title', 'name', 'sectionId', 'archived_at'] as const;

/**
 * A write whose result is larger than one tool result can carry: writes are never re-run to read further pages, so
 * instead of a first page that cannot be continued, the agent gets the records the write touched (id, version and a
 * recognisable label), as many as fit, and is told how many there were.
 */
export function writeSummary(output: unknown) {
  const records: Record<string, unknown>[] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 8 || !v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.id === 'string')
      records.push(Object.fromEntries(KEPT.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])));
    else for (const x of Object.values(o)) visit(x, depth + 1);
  };
  visit(output, 0);
  const shown: Record<string, unknown>[] = [];
  let bytes = 400; // room for the envelope and the note
  for (const r of records) {
    bytes += JSON.stringify(r).length + 1;
    if (bytes > PAGE_BYTES) break;
    shown.push(r);
  }
  return {
    records: shown,
    total: records.length,
    note:
      shown.length === records.length
        ? 'The full result exceeded 8,000 bytes; these are the records this write touched, with their new versions.'
        : `The full result exceeded 8,000 bytes; the first ${shown.length} of ${records.length} touched records are listed. Read the others with the matching list or get action.`,
  };
}
