import type { LineRow } from '../schedule/record.js';
import type { Currency, ValueState } from '../../../db/vocabulary.js';
import { minorUnits, parseAmount4, roundToPlaces } from '../../core/money.js';
import { derivePricing } from '../schedule/pricing.js';

/** A piece's client price, exact: the schedule's own derivation (hand-set, or trade × (1 + markup)), unrounded. */
export interface PiecePrice {
  state: ValueState;
  /** The client unit rate at scale 8, null unless the state is `set`. */
  rate8: bigint | null;
  /** quantity × rate at scale 12, null unless the state is `set`. */
  total12: bigint | null;
}

export function piecePrice(row: LineRow, defaultMarkup4: string): PiecePrice {
  const d = derivePricing(row, defaultMarkup4);
  const rate8 = d.clientRate8;
  return { state: d.client.state, rate8, total12: rate8 === null ? null : parseAmount4(row.quantity4) * rate8 };
}

/**
 * Display figures, each rounded once from exact factors to the currency's minor unit: a shown unit price is the rate
 * rounded, a shown total is quantity × the unrounded rate rounded. The two need not reconcile, by design.
 */
export const shownMoney = (exact: bigint, scale: number, currency: Currency) => ({
  amount4: roundToPlaces(exact, scale, minorUnits(currency)).toString(),
  currency,
});
