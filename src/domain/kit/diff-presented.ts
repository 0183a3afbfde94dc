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
  for (const [k, v] of Object.entries(after)) {
    if (UNTRACKED.has(k)) continue;
    if (JSON.stringify(before[k]) !== JSON.stringify(v)) changes[k] = { from: before[k] ?? null, to: v ?? null };
  }
  return changes;
}
