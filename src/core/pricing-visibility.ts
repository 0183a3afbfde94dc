/**
 * Trade price, markup and margin exist only for callers holding `pricing:read`: without it they are absent (not
 * nulled) from every response of every surface. Redaction happens once, in `invoke`, on the validated output.
 */
export const PRICING_FIELDS: ReadonlySet<string> = new Set([
  'tradePrice',
  'markup',
  'margin',
  'defaultMarkup',
  'tradeTotal',
  'marginTotal',
]);

export function withoutPricing<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutPricing) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!PRICING_FIELDS.has(k)) out[k] = withoutPricing(v);
    return out as T;
  }
  return value;
}

/** The first pricing field an input tries to write, if any (writing needs `pricing:write`). */
export function pricingFieldIn(value: unknown, depth = 0): string | undefined {
  if (depth > 8 || !value || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const hit = pricingFieldIn(v, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const [k, v] of Object.entries(value)) {
    if (PRICING_FIELDS.has(k) && v !== undefined) return k;
    const hit = pricingFieldIn(v, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}
