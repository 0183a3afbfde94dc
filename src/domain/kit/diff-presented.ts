const UNTRACKED = new Set(['version', 'updatedAt', 'createdAt']);

/**
 * Field → { from, to } for every API field whose value differs between two presentations of a record. Diffing the
 * presented shape (not columns) keeps audit changes in the API's own words, so pricing redaction applies to them too.
 */
export function diffPresented(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const k in after) {
    if (UNTRACKED.has(k)) continue;
    const v = after[k];
    if (!same(before[k], v)) changes[k] = { from: before[k] ?? null, to: v ?? null };
  }
  return changes;
}

/** Equal as JSON: identical values at once (most fields are strings), objects and arrays by their JSON text. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
