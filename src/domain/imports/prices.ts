import { CURRENCIES, type Currency, type ValueState } from '../../../db/vocabulary.js';
import { displayAmount, MAX_PRICE4 } from '../../core/money.js';
import { readNumber, toScale4 } from './numbers.js';

/** A priced cell as a line takes it: a state, and an amount exactly when the state is `set`. */
export interface CellPrice {
  state: ValueState;
  amount4?: string;
}

export type PriceReading = { ok: true; price: CellPrice } | { ok: false; message: string };

/** How the value states are written in studios' schedules; matched after lower-casing and dropping punctuation. */
const STATE_WORDS: ReadonlyArray<[ValueState, readonly string[]]> = [
  ['tbc', ['tbc', 'tba', 'to be confirmed', 'to be advised', 'tbd', 'to follow', 'awaiting price', 'pending']],
  ['poa', ['poa', 'price on application', 'on application', 'price on request', 'por']],
  ['included', ['incl', 'inc', 'included', 'including', 'included in price', 'incl in price', 'in price']],
  [
    'by_others',
    [
      'by others',
      'others',
      'supplied by others',
      'by client',
      'client',
      'client supply',
      'client supplied',
      'supplied by client',
      'by contractor',
      'by builder',
      'existing',
    ],
  ],
];
const STATES = new Map<string, ValueState>(STATE_WORDS.flatMap(([state, words]) => words.map((w) => [w, state])));

/** Written as nothing to pay: a price of 0. */
const FREE = new Set(['free', 'foc', 'free of charge', 'no charge', 'nil', 'nc']);
/** Written as nothing at all: the default state (to be confirmed). */
const BLANK = new Set(['', '-', '–', '—', '?']);

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[.()'’]/g, '')
    .replace(/[/_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const SYMBOLS: Readonly<Record<string, string>> = { '£': 'GBP', '€': 'EUR', '¥': 'JPY' };
const DOLLARS = new Set(['USD', 'AUD', 'CAD', 'NZD', 'SGD', 'HKD']);
const MARK = `[£€$¥]|${CURRENCIES.join('|')}`;
const MARKED = new RegExp(`^(-?)\\s*(${MARK})\\s*|\\s*(${MARK})$`, 'iu');
const currencyOf = (written: string, project: Currency) =>
  written === '$' ? (DOLLARS.has(project) ? project : 'USD') : (SYMBOLS[written] ?? written.toUpperCase());
const VAT = /\s*(?:\+\s*vat|(?:ex|exc|excl|excluding)\.?\s*vat)\s*$/i;

/**
 * A price cell: a value state ("TBC", "POA", "incl.", "included", "by others" …), nothing (to be confirmed), a free
 * word (0), or an amount in the project's currency, with or without its symbol, code, thousands separators and
 * "+ VAT" ("£1,250.00", "1250", "1,250.5", "1.250,50 €", "GBP 1250"). Amounts are exact: more than four decimal places,
 * a negative amount, another currency's symbol or more than the largest price are refused with the reason.
 */
export function readPrice(text: string, currency: Currency): PriceReading {
  const words = wordsOf(text);
  if (BLANK.has(words)) return { ok: true, price: { state: 'tbc' } };
  const state = STATES.get(words);
  if (state) return { ok: true, price: { state } };
  if (FREE.has(words)) return { ok: true, price: { state: 'set', amount4: '0' } };
  let written: string | undefined;
  // A symbol or ISO code before or after the amount names its currency; "$" is whichever dollar the project uses.
  const amount = text
    .trim()
    .replace(VAT, '')
    .replace(MARKED, (_m, sign = '', before?: string, after?: string) => {
      written = currencyOf(before ?? after ?? '', currency);
      return sign;
    });
  if (written && written !== currency) {
    return {
      ok: false,
      message: `This price is in ${written} but the project is priced in ${currency}; convert it, or write it without a currency.`,
    };
  }
  const n = readNumber(amount);
  if (!n.ok) {
    return {
      ok: false,
      message:
        'This is not a price: write an amount such as 1250.00 or £1,250.00, or TBC, POA, included or by others (an empty cell is TBC).',
    };
  }
  if (n.negative && n.decimal !== '0')
    return { ok: false, message: 'A price is never negative; enter it without the minus sign or brackets.' };
  const scaled = toScale4(n.decimal);
  if (!scaled.ok) {
    return {
      ok: false,
      message: `${n.decimal} has more than four decimal places; round it in the spreadsheet (for a formula, =ROUND(…, 2)).`,
    };
  }
  if (scaled.amount4 > MAX_PRICE4) {
    return { ok: false, message: `A price is at most ${displayAmount(MAX_PRICE4, 4)}; check this amount.` };
  }
  return { ok: true, price: { state: 'set', amount4: scaled.amount4.toString() } };
}
