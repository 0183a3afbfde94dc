import { minorUnits } from '../../core/money.js';

/**
 * Figures and dates as a client reads them on the page. Amounts are formatted from their scale-4 strings as exact
 * decimal strings (Intl formats a numeric string without turning it into a float), so no figure is ever rounded
 * twice or drifts: what the API says is what the page says.
 */

/** A scale-4 integer string as an exact decimal string: "12500000" → "1250.0000", "-5" → "-0.0005". */
export function decimalOf(amount4: string): string {
  const n = BigInt(amount4);
  const magnitude = n < 0n ? -n : n;
  const fraction = (magnitude % 10_000n).toString().padStart(4, '0');
  return `${n < 0n ? '-' : ''}${magnitude / 10_000n}.${fraction}`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Money for people: "£1,250.00", "€980.50", "¥12,000", with the currency's own minor unit. */
export function formatMoney(money: { amount4: string; currency: string }): string {
  let format = moneyFormats.get(money.currency);
  if (!format) {
    const places = minorUnits(money.currency);
    format = new Intl.NumberFormat('en', {
      style: 'currency',
      currency: money.currency,
      minimumFractionDigits: places,
      maximumFractionDigits: places,
    });
    moneyFormats.set(money.currency, format);
  }
  return format.format(decimalOf(money.amount4) as Intl.StringNumericLiteral);
}

const plain = new Intl.NumberFormat('en', { maximumFractionDigits: 4 });

/** A scale-4 number without needless decimals: "20000" → "2", "35000" → "3.5", "12345678" → "1,234.5678". */
export const formatNumber = (amount4: string): string => plain.format(decimalOf(amount4) as Intl.StringNumericLiteral);

const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** An RFC 3339 time as a calendar date: "22 November 2026" (UTC, as the API's times are). */
export const formatDate = (iso: string): string => longDate.format(new Date(iso));

/** A custom property's value as text, whatever its kind. */
export function formatPropertyValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.join(', ');
  if (value && typeof value === 'object' && 'amount4' in value) {
    const v = value as { amount4: string; currency?: string };
    return v.currency ? formatMoney({ amount4: v.amount4, currency: v.currency }) : formatNumber(v.amount4);
  }
  return '';
}
