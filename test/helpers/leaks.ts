import { displayAmount, ONE } from '../../src/core/money.js';

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

/**
 * The figures of a priced project that the studio keeps to itself: a piece of `quantity4` units at a trade price of
 * `trade4` and a markup of `markup4`, and a piece whose client price `handClient4` was set by hand over a trade price
 * of `handTrade4`. All are fixed-point with 4 decimal places.
 */
export interface KeptFigures {
  trade4: bigint;
  markup4: bigint;
  quantity4: bigint;
  handTrade4: bigint;
  handClient4: bigint;
}

/**
 * Every amount those figures would give away (each price and markup, the margin per unit and in total, the trade
 * total, the hand-set piece's margin), in every formatting a leak could take (see `leakForms`).
 */
export function marginForms(f: KeptFigures, places?: readonly number[]): string[] {
  return leakForms(
    [
      f.trade4,
      f.markup4,
      f.handTrade4,
      (f.trade4 * f.markup4) / ONE, // margin per unit
      (f.quantity4 * f.trade4) / ONE, // trade total
      (f.quantity4 * f.trade4 * f.markup4) / (ONE * ONE), // margin total
      f.handClient4 - f.handTrade4, // the hand-set piece's margin
    ],
    places,
  );
}
