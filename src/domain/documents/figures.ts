import type { Currency, ValueState } from '../../../db/vocabulary.js';
import { displayAmount, minorUnits, parseAmount4 } from '../../core/money.js';

/**
 * Figures as people read them in documents, from the exact scale-4 strings the client document carries: BigInt and
 * string work only, never a floating-point number, so "12500000" always prints as £1,250.00 and never as 1249.9999….
 */

/**
 * The sign a reader knows each currency by. Where a bare sign is shared ($, kr) the country's prefix keeps it
 * unambiguous (A$, CA$); the Scandinavian crowns and the franc read best as their codes.
 */
const SIGNS: Partial<Record<Currency, string>> = {
  GBP: '£',
  EUR: '€',
  USD: '$',
  JPY: '¥',
  AUD: 'A$',
  CAD: 'CA$',
  NZD: 'NZ$',
  SGD: 'S$',
  HKD: 'HK$',
  ZAR: 'R',
};

/** `"12500000"`, GBP → `£1,250.00`; at the currency's minor unit (JPY has none); a minus sign before the sign. */
export function moneyText(amount4: string, currency: Currency): string {
  const text = displayAmount(parseAmount4(amount4), minorUnits(currency));
  const negative = text.startsWith('-');
  const digits = negative ? text.slice(1) : text;
  const sign = SIGNS[currency];
  return `${negative ? '-' : ''}${sign ?? `${currency} `}${digits}`;
}

/**
 * A unit price as a supplier must read it: at the currency's minor unit when it has nothing finer (`£12.50`), else with
 * the digits it has (`£33.3333`, `£12.345`), so a price agreed to the fourth decimal is never printed rounded.
 */
export function unitMoneyText(amount4: string, currency: Currency): string {
  const n = parseAmount4(amount4);
  const places = minorUnits(currency);
  if (n % 10n ** BigInt(4 - places) === 0n) return moneyText(amount4, currency);
  const digits = displayAmount(n < 0n ? -n : n, 4).replace(/0+$/, '');
  return `${n < 0n ? '-' : ''}${SIGNS[currency] ?? `${currency} `}${digits}`;
}

/**
 * A scale-4 amount as a plain decimal string with `places` decimals, rounded half away from zero, no grouping:
 * `"12500000"`, 2 → `"1250.00"`. What a CSV cell holds and what a spreadsheet number is parsed from.
 */
export function decimalText(amount4: string, places: number): string {
  return displayAmount(parseAmount4(amount4), places).replaceAll(',', '');
}

/** A quantity without trailing zeros, grouped: `"25000"` → `2.5`, `"12000000"` → `1,200`. */
export function quantityText(amount4: string): string {
  return displayAmount(parseAmount4(amount4), 4).replace(/0+$/, '').replace(/\.$/, '');
}

/** A quantity as a plain decimal string for a spreadsheet: `"25000"` → `"2.5"`. */
export function quantityDecimal(amount4: string): string {
  return quantityText(amount4).replaceAll(',', '');
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** An RFC 3339 time's calendar date as people write it, read from the text (UTC, as stored): `22 November 2026`. */
export function dateText(timestamp: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(timestamp);
  if (!m) return timestamp;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}`;
}

/** What a piece's price says when there is no amount to show. */
export const PRICE_STATE_WORDS: Record<ValueState, string> = {
  set: '',
  tbc: 'To be confirmed',
  poa: 'Price on application',
  included: 'Included',
  by_others: 'By others',
};
