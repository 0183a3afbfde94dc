import type { Currency } from '../../../db/vocabulary.js';
import { quantityText } from './figures.js';

/**
 * The words a client reads for counts, quantities and lead times, in one place for the share page, the estimate
 * page, the PDFs and the exports: plurals from `Intl.PluralRules` in the studio's locale ("5 sets", never "5 set"),
 * lead times in weeks when they are whole weeks ("6 weeks"), "In stock" for none, and units as studios write them
 * ("8.4 m", "12 m²", "3 pairs").
 */

/**
 * The locale a studio's client documents are written in. Studios have no locale setting yet; their currency names
 * their region (a London studio bills in GBP), and the documents are in English, so English of that region.
 */
const REGIONS: Partial<Record<Currency, string>> = {
  GBP: 'en-GB',
  USD: 'en-US',
  AUD: 'en-AU',
  CAD: 'en-CA',
  NZD: 'en-NZ',
  SGD: 'en-SG',
  HKD: 'en-HK',
  ZAR: 'en-ZA',
  EUR: 'en-IE',
};

export const localeOf = (currency: Currency | string): string => REGIONS[currency as Currency] ?? 'en-GB';

/** Measures are written as symbols, whatever the quantity ("8.4 m", "1 m²"); their names as studios call them. */
const SYMBOLS: Readonly<Record<string, string>> = {
  metre: 'm',
  meter: 'm',
  'linear metre': 'm',
  'linear meter': 'm',
  'square metre': 'm²',
  'square meter': 'm²',
  'cubic metre': 'm³',
  'cubic meter': 'm³',
  centimetre: 'cm',
  centimeter: 'cm',
  millimetre: 'mm',
  millimeter: 'mm',
  'square foot': 'sq ft',
  'square feet': 'sq ft',
  foot: 'ft',
  feet: 'ft',
  inch: 'in',
  yard: 'yd',
  kilogram: 'kg',
  litre: 'l',
  liter: 'l',
};

/** Units that read the same for any quantity: "each", "2 no.", and anything already written as a symbol. */
const INVARIANT = new Set(['each', 'ea', 'no.', 'no', 'nr', 'pcs', 'lot', 'sq ft', 'lm']);

/** An English noun's plural: set → sets, box → boxes, body → bodies; "pair of curtains" → "pairs of curtains". */
export function pluralNoun(noun: string): string {
  const of = noun.indexOf(' of ');
  if (of > 0) return pluralNoun(noun.slice(0, of)) + noun.slice(of);
  if (/(s|x|z|ch|sh)$/i.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

export interface ClientWords {
  readonly locale: string;
  /** "1 piece", "5 pieces", "2 rooms" (the plural given, or made from the singular). */
  count(n: number, one: string, other?: string): string;
  /** A quantity (scale-4 string) with its unit: "5 sets", "1 set", "8.4 m", "2 each", or the bare number. */
  quantity(amount4: string, unit: string | null | undefined): string;
  /** A unit alone, as the heading of a quantity column would use it for `amount4`: "sets", "m". */
  unit(amount4: string, unit: string): string;
  /** A lead time in days: "In stock" (0), "1 week", "6 weeks", "10 days". */
  leadTime(days: number): string;
}

const cache = new Map<string, ClientWords>();

/** The words in a locale (cached: PluralRules and NumberFormat are costly to make). */
export function clientWords(locale = 'en-GB'): ClientWords {
  const known = cache.get(locale);
  if (known) return known;
  const rules = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);
  const isOne = (n: number) => rules.select(n) === 'one';
  const unitFor = (amount4: string, unit: string) => {
    const name = unit.trim();
    const symbol = SYMBOLS[name.toLowerCase()];
    if (symbol) return symbol;
    if (INVARIANT.has(name.toLowerCase()) || !/^[\p{L} ]+$/u.test(name)) return name;
    // The plural category of the quantity as shown: "1" is one, "1.5" and "2" are other.
    return isOne(Number(quantityText(amount4).replaceAll(',', ''))) ? name : pluralNoun(name);
  };
  const words: ClientWords = {
    locale,
    count: (n, one, other) => `${numbers.format(n)} ${isOne(n) ? one : (other ?? pluralNoun(one))}`,
    quantity: (amount4, unit) =>
      unit?.trim() ? `${quantityText(amount4)} ${unitFor(amount4, unit)}` : quantityText(amount4),
    unit: unitFor,
    leadTime: (days) => {
      if (days === 0) return 'In stock';
      return days % 7 === 0 ? words.count(days / 7, 'week') : words.count(days, 'day');
    },
  };
  cache.set(locale, words);
  return words;
}

/** Whether a set of lead times reads best in weeks: every one a whole number of weeks (none is fine). */
export const allWholeWeeks = (days: ReadonlyArray<number>) => days.every((d) => d % 7 === 0);

/** Up to two initials of a name, for the studio's monogram when it has no mark of its own: "Hartley & Rowe" → "HR". */
export function initialsOf(name: string): string {
  const words = name.split(/[\s&+,.-]+/u).filter((w) => /^\p{L}/u.test(w));
  return words
    .slice(0, 2)
    .map((w) => [...w][0]!.toLocaleUpperCase())
    .join('');
}
