import { LINE_STATUSES, type LineStatus } from '../../../db/vocabulary.js';
import { displayAmount, MAX_QUANTITY4 } from '../../core/money.js';
import { readNumber, toScale4 } from './numbers.js';

/**
 * Readers for the cells of a line other than prices (prices.ts): each gives the value, or a sentence a person can act
 * on. Whether a failure stops the row (an error) or leaves the field at its default (a warning) is the plan's choice.
 */
export type Reading<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string) => ({ ok: false as const, message });

/** "2", "2.5", "1,000", "2 no.", "3 m", "12 m²", "x2": the amount, and a unit word written beside it. */
export function readQuantity(text: string): Reading<{ amount4: string; unit?: string }> {
  const m = /^\s*[x×]?\s*([-\u2212(]?[\d.,\s']*\d[\d.,)]*)\s*([^\d\s].*)?$/u.exec(text);
  const n = m ? readNumber(m[1]!) : { ok: false as const };
  if (!m || !n.ok) return fail('This is not a quantity: write a number such as 2 or 2.5 (an empty cell is 1).');
  if (n.negative && n.decimal !== '0') return fail('A quantity is never negative.');
  const scaled = toScale4(n.decimal);
  if (!scaled.ok) return fail(`${n.decimal} has more than four decimal places; round the quantity.`);
  if (scaled.amount4 > MAX_QUANTITY4)
    return fail(`A quantity is at most ${displayAmount(MAX_QUANTITY4, 4)}; check this number.`);
  const unit = m[2]?.trim();
  return { ok: true, value: { amount4: scaled.amount4.toString(), ...(unit ? { unit } : {}) } };
}

const DAYS: ReadonlyArray<[RegExp, number]> = [
  [/^(?:d|day|days|dy|dys|wd|working days?)$/, 1],
  [/^(?:w|wk|wks|week|weeks)$/, 7],
  [/^(?:m|mo|mth|mths|month|months)$/, 30],
];
const IN_STOCK = /^(?:ex[ -]?stock|in stock|stock|stock item|immediate|now)$/;

/**
 * A lead time in days: "6 weeks", "6-8 wks" (the longer end: plan for the worst), "10 days", "2 months" (30 days
 * each), "ex stock" (0), "TBC" or nothing (none). A bare number is in the heading's unit ("Lead time (weeks)"), else
 * in days.
 */
export function readLeadTime(text: string, heading: string): Reading<number | null> {
  const t = text.trim().toLowerCase().replace(/\.$/, '');
  if (t === '' || /^(?:tbc|tba|tbd|-|n\/?a)$/.test(t)) return { ok: true, value: null };
  if (IN_STOCK.test(t)) return { ok: true, value: 0 };
  const m = /^(\d+(?:\.\d+)?)(?:\s*(?:-|–|to)\s*(\d+(?:\.\d+)?))?\s*([a-z ]*)$/.exec(t);
  const unitWord = m?.[3]?.trim() ?? '';
  const fromHeading = /week|wk/i.test(heading) ? 7 : /month/i.test(heading) ? 30 : 1;
  const per = unitWord === '' ? fromHeading : DAYS.find(([re]) => re.test(unitWord))?.[1];
  if (!m || per === undefined) {
    return fail(
      'This is not a lead time: write it as "6 weeks", "10 days", "6-8 weeks" or "ex stock". It was left empty.',
    );
  }
  const days = Math.ceil(Number(m[2] ?? m[1]) * per);
  if (days > 3650) return fail('A lead time is at most ten years (3650 days); it was left empty.');
  return { ok: true, value: days };
}

const STATUS_WORDS: Readonly<Record<string, LineStatus>> = {
  proposed: 'draft',
  option: 'draft',
  options: 'draft',
  idea: 'draft',
  spec: 'specified',
  specced: 'specified',
  quoted: 'specified',
  'client approved': 'approved',
  'signed off': 'approved',
  'on order': 'ordered',
  placed: 'ordered',
  'po raised': 'ordered',
  received: 'delivered',
  'on site': 'delivered',
  fitted: 'installed',
  complete: 'installed',
  completed: 'installed',
  hold: 'on_hold',
  paused: 'on_hold',
};

/** A status word: one of the line statuses in any case ("On hold"), or a studio's usual word for one ("On order"). */
export function readStatus(text: string): Reading<LineStatus> {
  const t = text.trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
  const exact = LINE_STATUSES.find((s) => s.replace('_', ' ') === t);
  const status = exact ?? STATUS_WORDS[t];
  if (status) return { ok: true, value: status };
  return fail(
    `"${text.trim().slice(0, 40)}" is not a line status (draft, specified, approved, ordered, delivered, installed, on hold); the line starts as draft.`,
  );
}

/** A markup: "35%", "35" (a percentage) or "0.35" (a fraction, as a spreadsheet's percent cell holds it), 0%–1000%. */
export function readMarkup(text: string): Reading<string> {
  const t = text.trim();
  const percent = t.endsWith('%');
  const n = readNumber(percent ? t.slice(0, -1) : t);
  if (!n.ok || n.negative) return fail('This is not a markup: write a percentage such as 35%.');
  // Below 1 without a % sign it is a fraction (0.35 = 35%); otherwise a percentage. ratio4 = percent × 100.
  const asPercent = !percent && n.decimal.startsWith('0') ? shift(n.decimal, 2) : n.decimal;
  const scaled = toScale4(shift(asPercent, -2));
  if (!scaled.ok) return fail('A markup has at most two decimal places of a percent (35.25%).');
  if (scaled.amount4 > 100_000n) return fail('A markup is at most 1000%.');
  return { ok: true, value: scaled.amount4.toString() };
}

/** A plain decimal × 10^places, exactly. */
function shift(decimal: string, places: number): string {
  const [whole = '0', fraction = ''] = decimal.split('.');
  const digits = whole + fraction;
  const point = whole.length + places;
  const padded = point <= 0 ? '0'.repeat(1 - point) + digits : digits.padEnd(point, '0');
  const at = Math.max(point, 1);
  const out = `${padded.slice(0, at)}.${padded.slice(at)}`.replace(/^0+(?=\d)/, '').replace(/\.?0*$/, '');
  return out === '' ? '0' : out;
}

/** A web address: http(s), or a bare "www." address (https assumed). */
export function readUrl(text: string): Reading<string> {
  const t = text.trim();
  const url = /^www\./i.test(t) ? `https://${t}` : t;
  if (/^https?:\/\/\S+$/i.test(url) && URL.canParse(url) && url.length <= 2000) return { ok: true, value: url };
  return fail('This is not a web address (https://…); the link was left out.');
}
