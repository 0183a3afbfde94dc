import { displayAmount } from '../../src/core/money.js';

/**
 * Every formatting of each amount (fixed-point, 4 decimal places) a leak could take: the raw integer, and the decimal
 * at each of `places`, with and without thousands separators. Forms of fewer than 5 digits would match by chance (a
 * quantity, a year), so they are left out; the rest are long enough to mean a leak.
 */
export function leakForms(amounts: readonly bigint[], places: readonly number[] = [4, 2, 1]): string[] {
  const forms = new Set<string>();
  for (const n of amounts) {
    for (const s of [n.toString(), ...places.map((p) => displayAmount(n, p))]) {
      forms.add(s);
      forms.add(s.replaceAll(',', ''));
    }
  }
  return [...forms].filter((f) => f.replace(/\D/g, '').length >= 5);
}
