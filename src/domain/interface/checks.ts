import { ServiceError } from '../../core/errors.js';

/** The checks every piece of interface state shares; each refusal names the field and says what to send instead. */

export function refuse(path: string, message: string, detail: string): never {
  throw new ServiceError('VALIDATION_FAILED', message, { errors: [{ path, message: detail }] });
}

/** Lists are orders or sets: an entry given twice is a mistake, not a preference. */
export function refuseRepeats(list: readonly string[], path: string, what: string) {
  const seen = new Set<string>();
  for (const [i, v] of list.entries()) {
    if (seen.has(v)) refuse(`${path}.${i}`, `${what} ${v} is given twice; give each once.`, 'Repeated.');
    seen.add(v);
  }
}

/** A merge patch that names nothing to change is refused, as an empty settings patch is. */
export function refuseEmptyPatch(patch: Record<string, unknown>, fields: readonly string[]) {
  if (fields.some((f) => patch[f] !== undefined)) return;
  const list = fields.length > 1 ? `${fields.slice(0, -1).join(', ')} or ${fields.at(-1)}` : fields[0];
  refuse('(input)', `Give at least one thing to change: ${list}.`, 'Nothing to change.');
}

/** "a, b and c", for sentences that list what is allowed. */
export const listed = (items: readonly string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? 'none');
