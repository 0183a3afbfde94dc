/**
 * An XLSX numeric cell as the exact decimal its author sees. The file stores the number as text (`<v>1250.5</v>`),
 * which the reader parses to a double; the shortest decimal that round-trips that double (`String(n)`, ECMAScript's
 * Number::toString) is the stored text again whenever the text had at most 15 significant digits, which is everything
 * a person types: Excel keeps 15 significant digits of what is typed. Formula results are another matter: Excel writes
 * them with 17 digits, so =0.1+0.2 is stored as 0.30000000000000004, binary noise that Excel itself never shows.
 * So the decimal is rounded (half away from zero) to Excel's 15 significant digits, in string and BigInt arithmetic,
 * never by multiplying the double: 0.30000000000000004 → "0.3", 1500.6000000000001 → "1500.6", 1250.5 → "1250.5".
 * A cell formatted as a percentage (0.35 shown as 35%) is given as "35%", so its meaning survives as text.
 */
export const EXCEL_DIGITS = 15;

export function cellNumberText(n: number, percent = false): string {
  if (!Number.isFinite(n)) return String(n);
  const decimal = roundSignificant(plainDecimal(String(n)), EXCEL_DIGITS);
  return percent ? `${shiftPoint(decimal, 2)}%` : decimal;
}

/** `1.5e-7` → `0.00000015`, `1e+21` → `1000000000000000000000`: ECMAScript's exponent forms written out. */
export function plainDecimal(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/i.exec(text);
  if (!m) throw new RangeError(`not a decimal number: ${text}`);
  const [, sign, whole, fraction = '', exp = '0'] = m;
  return normalise(sign!, whole! + fraction, whole!.length + Number(exp));
}

/** Digits with the decimal point after `point` of them (which may be ≤ 0 or past the end), as a plain decimal. */
function normalise(sign: string, digits: string, point: number): string {
  let whole: string;
  let fraction: string;
  if (point <= 0) {
    whole = '0';
    fraction = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    whole = digits + '0'.repeat(point - digits.length);
    fraction = '';
  } else {
    whole = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  whole = whole.replace(/^0+(?=\d)/, '');
  fraction = fraction.replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return text === '0' ? '0' : sign + text;
}

/** A plain decimal rounded half away from zero to `digits` significant digits, trailing zeros dropped. */
export function roundSignificant(decimal: string, digits: number): string {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const all = whole + fraction;
  const first = all.search(/[1-9]/);
  if (first < 0) return '0';
  const significant = all.length - first;
  if (significant <= digits) return decimal;
  // Keep `digits` significant digits: an integer of them, rounded on the next digit, then put back in place.
  const cut = first + digits;
  let kept = BigInt(all.slice(0, cut));
  if (all.charCodeAt(cut) - 48 >= 5) kept += 1n;
  const dropped = all.length - cut;
  const keptText = kept.toString();
  // The kept integer stands for all[0..cut) (its leading zeros gone); the point sits `whole.length` digits in.
  const padded = keptText.padStart(cut, '0');
  const overflow = padded.length - cut;
  return normalise(negative ? '-' : '', padded + '0'.repeat(dropped), whole.length + overflow);
}

/** The decimal point moved `places` to the right (×10^places), exactly. */
function shiftPoint(decimal: string, places: number): string {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  return normalise(negative ? '-' : '', whole + fraction, whole.length + places);
}
