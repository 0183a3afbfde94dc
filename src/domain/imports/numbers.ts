/**
 * Numbers as studios write them in spreadsheets, read exactly into scale-4 integers (no floating point anywhere).
 *
 * The separator rule, for text cells (an XLSX numeric cell arrives as a plain decimal and never needs it):
 * - Spaces, non-breaking spaces and apostrophes between digits group thousands: "1 250,50", "1'250.50".
 * - When both "," and "." appear, the rightmost is the decimal mark and the other groups thousands, in groups of three:
 *   "1,250.50" and "1.250,50" are both 1250.5.
 * - When only commas appear, commas followed by exactly three digits group thousands ("1,250" is 1250,
 *   "1,250,000" a million); a single comma followed by one, two or four or more digits is a decimal comma ("12,5",
 *   "1250,50").
 * - When only dots appear, several dots group thousands ("1.250.000"); a single dot is the decimal point ("1.250" is
 *   one and a quarter: the English reading, as the studios this serves write).
 * Anything else (letters, two decimal marks, misplaced groups) is not a number, and the caller says so.
 */

export type NumberReading = { ok: true; decimal: string; negative: boolean } | { ok: false };

const GROUP = /(?<=\d)[\s\u00a0\u202f']+(?=\d{3}(?:\D|$))/g;

/** A written number as a plain decimal ("1250.5"): its digits and at most one point, and whether it was negative. */
export function readNumber(written: string): NumberReading {
  let text = written.trim();
  let negative = false;
  const paren = /^\((.*)\)$/.exec(text);
  if (paren) {
    negative = true;
    text = paren[1]!.trim();
  }
  if (/^[-\u2212]/.test(text)) {
    negative = !negative;
    text = text.slice(1).trim();
  }
  text = text.replace(GROUP, '');
  if (!/^[\d.,]+$/.test(text) || !/\d/.test(text)) return { ok: false };
  const decimal = withPoint(text);
  return decimal === undefined ? { ok: false } : { ok: true, decimal, negative };
}

function withPoint(text: string): string | undefined {
  const commas = text.split(',').length - 1;
  const dots = text.split('.').length - 1;
  if (commas && dots) {
    const mark = text.lastIndexOf(',') > text.lastIndexOf('.') ? ',' : '.';
    const group = mark === ',' ? '.' : ',';
    const [whole, fraction, ...more] = text.split(mark);
    if (more.length || !isGrouped(whole!, group) || !/^\d+$/.test(fraction!)) return undefined;
    return `${whole!.split(group).join('')}.${fraction}`;
  }
  if (commas) return onlyOneKind(text, ',');
  if (dots) return onlyOneKind(text, '.');
  return text;
}

/** Text with one kind of separator: groups of three after each (thousands), or a single decimal mark. */
function onlyOneKind(text: string, mark: ',' | '.'): string | undefined {
  const parts = text.split(mark);
  if (parts.some((p) => p === '') && !(parts.length === 2 && parts[0] === '' && mark === '.')) return undefined;
  if (parts.length === 2) {
    const [whole, fraction] = parts as [string, string];
    // "1,250" groups thousands; "12,5" and "1.250" carry a decimal mark (see the rule above).
    if (mark === ',' && fraction.length === 3 && whole.length <= 3 && whole !== '0') return whole + fraction;
    return `${whole || '0'}.${fraction}`;
  }
  return isGrouped(text, mark) ? parts.join('') : undefined;
}

/** "1,250,000": a first group of one to three digits, then groups of exactly three. */
function isGrouped(text: string, group: string): boolean {
  const parts = text.split(group);
  return /^\d{1,3}$/.test(parts[0]!) && parts.slice(1).every((p) => /^\d{3}$/.test(p));
}

export type Scale4 = { ok: true; amount4: bigint } | { ok: false; reason: 'places' };

/** A plain decimal as a scale-4 integer, exactly: more than four decimal places is refused, never rounded away. */
export function toScale4(decimal: string): Scale4 {
  const [whole, fraction = ''] = decimal.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > 4) return { ok: false, reason: 'places' };
  return { ok: true, amount4: BigInt((whole || '0') + trimmed.padEnd(4, '0')) };
}
