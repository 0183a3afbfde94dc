/**
 * The money of an offer, an order or an invoice, computed the way Xero and QuickBooks compute it, so that what the
 * studio issues and what it later pushes to its accounts agree to the penny: each line's net is rounded once to the
 * currency's minor unit, its tax is worked out from that net and rounded once, and the totals are plain sums of the
 * rounded lines (never a tax on the total). A deposit is a percentage of the total including tax, rounded once.
 * Every figure is a scale-4 BigInt whose digits below the minor unit are zero.
 */
import { ONE, SCALE, minorUnits, roundToPlaces } from './money.js';

export interface TaxedLine {
  net4: bigint;
  tax4: bigint;
  gross4: bigint;
}

export interface TaxedTotals {
  net4: bigint;
  tax4: bigint;
  gross4: bigint;
}

/**
 * One line: `exactNet` is the unrounded net held at `scale` decimals (quantity × rate at scale 8, say); `taxRatio4` is
 * the line's tax rate as a scale-4 ratio (`2000` = 20 %).
 */
export function taxedLine(exactNet: bigint, scale: number, taxRatio4: bigint, currency: string): TaxedLine {
  const places = minorUnits(currency);
  const net4 = roundToPlaces(exactNet, scale, places);
  const tax4 = roundToPlaces(net4 * taxRatio4, SCALE * 2, places);
  return { net4, tax4, gross4: net4 + tax4 };
}

/** The totals of rounded lines: sums, never recomputed from the sums. */
export function sumTaxed(lines: readonly TaxedLine[]): TaxedTotals {
  let net4 = 0n;
  let tax4 = 0n;
  for (const line of lines) {
    net4 += line.net4;
    tax4 += line.tax4;
  }
  return { net4, tax4, gross4: net4 + tax4 };
}

/** A deposit of `percentRatio4` (a scale-4 ratio: `2500` = 25 %) of the total including tax, rounded once. */
export function depositOf(gross4: bigint, percentRatio4: bigint, currency: string): bigint {
  if (percentRatio4 < 0n || percentRatio4 > ONE) throw new RangeError('a deposit is between 0 and 100 % of the total');
  return roundToPlaces(gross4 * percentRatio4, SCALE * 2, minorUnits(currency));
}
