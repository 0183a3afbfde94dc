import { ServiceError } from '../../core/errors.js';

/**
 * A new order must name every active record exactly once and nothing else, so a caller working from a stale list is
 * refused rather than half-applied. `field` is the input's list field; `what` names the records ("section");
 * `reread` says where the current list is.
 */
export function assertFullOrder(
  given: readonly string[],
  active: readonly string[],
  field: string,
  what: string,
  reread: string,
) {
  const named = new Set(given);
  const activeSet = new Set(active);
  const problems: Array<{ path: string; message: string }> = [];
  if (named.size !== given.length) problems.push({ path: field, message: `A ${what} is named more than once.` });
  for (const [i, id] of given.entries()) {
    if (!activeSet.has(id))
      problems.push({ path: `${field}.${i}`, message: `The ${what} ${id} is archived; list only active ones.` });
  }
  const missing = active.filter((id) => !named.has(id));
  if (missing.length) problems.push({ path: field, message: `Missing active ${what}(s): ${missing.join(', ')}.` });
  if (problems.length) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `Send the full list of the project's active ${what}s, each exactly once, in the new order; ${reread}.`,
      { errors: problems },
    );
  }
}
