import type { Caller } from './context.js';
import type { AnyAction } from './define-action.js';
import { pricedFieldNames, type Redaction } from './action-plan.js';
import { valuesAt, type PathStep } from './schema-marks.js';

/**
 * Trade price, markup, margin and whatever derives from them exist only for callers holding `pricing:read`: without
 * it they are absent (not nulled) from every response of every surface. What is priced is declared in the output
 * schemas with `priced()`; redaction happens once, in `invoke`, on the validated output.
 */
export function withoutPricing(value: unknown, plan: Redaction): unknown {
  if (!value || typeof value !== 'object') return value;
  const star = plan.get('*');
  if (Array.isArray(value)) {
    // An array's elements are its `*`: priced elements leave an empty list, open ones lose priced names.
    if (star === undefined) return value;
    if (star === true) return [];
    return star === 'open' ? withoutPricedNames(value) : value.map((v) => withoutPricing(v, star));
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const rule = plan.get(k) ?? star;
    if (rule === true) continue;
    out[k] = rule === undefined ? v : rule === 'open' ? withoutPricedNames(v) : withoutPricing(v, rule);
  }
  return out;
}

/** Inside a value the schema leaves open, any key named like a priced field anywhere is withheld. */
function withoutPricedNames(value: unknown, depth = 0): unknown {
  if (depth > 12 || !value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withoutPricedNames(v, depth + 1));
  const names = pricedFieldNames();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!names.has(k)) out[k] = withoutPricedNames(v, depth + 1);
  return out;
}

/** The first priced input field the caller sent, if any (writing one needs pricing:write). */
export function pricedFieldSent(input: unknown, paths: readonly PathStep[][]): string | undefined {
  for (const path of paths) {
    const parents = valuesAt(input, path.slice(0, -1));
    const last = path.at(-1)!;
    for (const parent of parents) {
      if (!parent || typeof parent !== 'object') continue;
      const entries = last === '*' ? Object.values(parent) : [(parent as Record<string, unknown>)[last]];
      if (entries.some((v) => v !== undefined)) return path.filter((s) => s !== '*').at(-1);
    }
  }
  return undefined;
}

/** An action's validated output as `caller` may see it: without pricing for a caller who may not read prices. */
export function shownTo(caller: Caller | null, action: AnyAction, output: unknown): unknown {
  return caller && action.plan.redaction && !caller.permissions.has('pricing:read')
    ? withoutPricing(output, action.plan.redaction)
    : output;
}
