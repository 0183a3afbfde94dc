import { parseAmount4 } from '../../core/money.js';
import { depositOf, sumTaxed, type TaxedLine } from '../../core/taxed-lines.js';
import { lineMoney } from '../kit/line-money.js';
import type { EstimateLineRow } from './record.js';

type Priced = Pick<EstimateLineRow, 'quantity4' | 'price_state' | 'price4' | 'tax_rate4' | 'currency'>;
type Offered = Priced & Pick<EstimateLineRow, 'id' | 'wording' | 'excluded'>;

/** Why a piece is not counted in the totals: its price is still to come, or the studio left it out. */
export type LeftOutReason = 'tbc' | 'poa' | 'excluded';

/** One line's money: quantity × unit price rounded once, its tax rounded once; null unless the price is set. */
export function lineFigures(row: Priced): TaxedLine | null {
  if (row.price_state !== 'set' || row.price4 === null) return null;
  return lineMoney(row.quantity4, row.price4, row.tax_rate4, row.currency);
}

const leftOutReason = (row: Offered): LeftOutReason | null =>
  row.price_state === 'tbc' || row.price_state === 'poa' ? row.price_state : row.excluded === 1 ? 'excluded' : null;

/**
 * The figures of an offer: each line's own, the totals of the counted ones (sums of rounded lines), the deposit of the
 * gross, and the lines left out by name. A line counts when it is not excluded and its price is set; one whose price
 * is tbc or poa and is not excluded is still to price (an issue refuses it).
 */
export function offerFigures(lines: readonly Offered[], depositPercent4: string, currency: string) {
  const perLine = new Map<string, TaxedLine | null>();
  const counted: TaxedLine[] = [];
  const leftOut: Array<{ id: string; wording: string; reason: LeftOutReason }> = [];
  const toPrice: Offered[] = [];
  for (const line of lines) {
    const figures = lineFigures(line);
    perLine.set(line.id, figures);
    const reason = leftOutReason(line);
    if (reason) leftOut.push({ id: line.id, wording: line.wording, reason });
    if (line.excluded === 1) continue;
    if (figures) counted.push(figures);
    else if (reason) toPrice.push(line);
  }
  const totals = sumTaxed(counted);
  return {
    perLine,
    totals,
    deposit4: depositOf(totals.gross4, parseAmount4(depositPercent4), currency),
    leftOut,
    toPrice,
  };
}

export { moneyOf } from '../kit/line-money.js';
