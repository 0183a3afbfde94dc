/**
 * The money of a document's line (an estimate's piece, a purchase order's line): quantity × unit price held exact at
 * scale 8, then rounded once with its tax as src/core/taxed-lines.ts does, and shown as the API's money.
 */
import type { Currency } from '../../../db/vocabulary.js';
import { parseAmount4 } from '../../core/money.js';
import { type TaxedLine, type TaxedTotals, taxedLine } from '../../core/taxed-lines.js';

/** One line's net, tax and gross: quantity × unit price rounded once to the minor unit, its tax rounded once. */
export function lineMoney(quantity4: string, unitPrice4: string, taxRatio4: string, currency: string): TaxedLine {
  return taxedLine(parseAmount4(quantity4) * parseAmount4(unitPrice4), 8, parseAmount4(taxRatio4), currency);
}

/** A scale-4 figure as the money the API shows. */
export const moneyOf = (amount4: bigint, currency: Currency) => ({ amount4: amount4.toString(), currency });

/** Net, tax and gross as the API shows them. */
export const figuresOf = (t: TaxedTotals, currency: Currency) => ({
  net: moneyOf(t.net4, currency),
  tax: moneyOf(t.tax4, currency),
  gross: moneyOf(t.gross4, currency),
});
