/**
 * Scale-4 fixed-point arithmetic on BigInt. Every amount travels as a string of an integer count of 1/10,000ths
 * (`"12500000"` = 1,250.0000). Intermediate products keep full precision; rounding (half away from zero) happens
 * once, at the end, in `rescale`. No floating-point number is ever produced.
 */
export const SCALE = 4;
export const ONE = 10_000n;

const INTEGER = /^-?(0|[1-9][0-9]*)$/;
/**
 * Longest amount4 string read or written at all: a sanity bound so no text becomes a huge BigInt. What callers may
 * send is bounded far lower (MAX_PRICE4, MAX_QUANTITY4, markups to 1000%), so every derived figure (a line total, a
 * project total over any number of lines) stays many digits inside it and an answer can never fail its own schema.
 */
export const MAX_AMOUNT4_DIGITS = 64;
/** The largest unit price a caller may set: 99,999,999,999.9999. */
export const MAX_PRICE4 = 10n ** 15n - 1n;
/** The largest quantity a caller may set: 99,999,999.9999 units. */
export const MAX_QUANTITY4 = 10n ** 12n - 1n;

export function isAmount4(s: string): boolean {
  return s.length - (s.startsWith('-') ? 1 : 0) <= MAX_AMOUNT4_DIGITS && INTEGER.test(s) && s !== '-0';
}

export function parseAmount4(s: string): bigint {
  if (!isAmount4(s)) throw new RangeError(`not a scale-4 integer string: ${JSON.stringify(s)}`);
  return BigInt(s);
}

export const formatAmount4 = (n: bigint): string => n.toString();

/** Divides `n` by `d`, rounding half away from zero. */
export function divRound(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError('division by zero');
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = an / ad;
  const r = an % ad;
  const rounded = r * 2n >= ad ? q + 1n : q;
  return negative ? -rounded : rounded;
}

/** a × b where both are scale 4: the exact product has scale 8; rounded once back to scale 4. */
export const mul4 = (a: bigint, b: bigint): bigint => divRound(a * b, ONE);

/** price × (1 + ratio), both scale 4, rounded once. */
export const applyMarkup = (price4: bigint, ratio4: bigint): bigint => divRound(price4 * (ONE + ratio4), ONE);

/**
 * A line total: quantity × unit rate where the rate itself may be derived (trade × (1 + markup)).
 * The derived rate is never rounded first: the product of all factors is rounded once. That is why a shown
 * unit price × quantity may differ from the shown total; the specification accepts that.
 */
export function lineTotal4(quantity4: bigint, rate4: bigint, markup4?: bigint): bigint {
  if (markup4 === undefined) return divRound(quantity4 * rate4, ONE);
  return divRound(quantity4 * rate4 * (ONE + markup4), ONE * ONE);
}

/** Human rendering for documents and logs only (never in an API value): "1,250.00" style at 2 places. */
export function displayAmount(n4: bigint, places = 2): string {
  const scaled = divRound(n4, 10n ** BigInt(SCALE - places));
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${whole}${places ? `.${digits.slice(-places)}` : ''}`;
}

/**
 * An exact amount held at `scale` decimal places, rounded once (half away from zero) to `places` decimals and given
 * back as a scale-4 integer: `roundToPlaces(123456789n, 8, 2)` = 12300n (1.23). For display figures rounded from
 * unrounded factors in one step, never from an already rounded scale-4 value.
 */
export function roundToPlaces(n: bigint, scale: number, places: number): bigint {
  if (places > SCALE || scale < places) throw new RangeError(`cannot round scale ${scale} to ${places} places`);
  return divRound(n, 10n ** BigInt(scale - places)) * 10n ** BigInt(SCALE - places);
}

/** ISO 4217 minor units of the currencies this service takes: how many decimals a displayed amount has. */
const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['JPY']);
export const minorUnits = (currency: string): number => (ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2);
