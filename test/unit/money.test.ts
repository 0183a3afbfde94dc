import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyMarkup,
  displayAmount,
  divRound,
  isAmount4,
  lineTotal4,
  minorUnits,
  mul4,
  ONE,
  parseAmount4,
  roundToPlaces,
} from '../../src/core/money.js';

const amount = fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n });
const positive = fc.bigInt({ min: 1n, max: 10n ** 12n });

describe('divRound: half away from zero, exact', () => {
  it('matches the definition on small cases', () => {
    expect(divRound(5n, 2n)).toBe(3n);
    expect(divRound(-5n, 2n)).toBe(-3n);
    expect(divRound(4n, 3n)).toBe(1n);
    expect(divRound(-4n, 3n)).toBe(-1n);
    expect(divRound(15n, 10n)).toBe(2n);
    expect(divRound(14999n, 10000n)).toBe(1n);
  });

  it('is within half a unit of the true quotient, and ties go away from zero', () => {
    fc.assert(
      fc.property(amount, positive, (n, d) => {
        const q = divRound(n, d);
        // |n - q·d| ≤ d/2, i.e. 2|n - q·d| ≤ d
        const err = n - q * d;
        expect(2n * (err < 0n ? -err : err) <= d).toBe(true);
        if (2n * (err < 0n ? -err : err) === d) expect(q < 0n ? -q : q).toBeGreaterThan(n < 0n ? -n / d : n / d);
      }),
    );
  });

  it('is symmetric: -(n/d) = (-n)/d', () => {
    fc.assert(
      fc.property(amount, positive, (n, d) => {
        expect(divRound(-n, d)).toBe(-divRound(n, d));
      }),
    );
  });
});

describe('scale-4 products', () => {
  it('multiplying by one (10000) is the identity', () => {
    fc.assert(
      fc.property(amount, (a) => {
        expect(mul4(a, ONE)).toBe(a);
      }),
    );
  });

  it('a zero markup leaves the price unchanged; 100% doubles it', () => {
    fc.assert(
      fc.property(amount, (a) => {
        expect(applyMarkup(a, 0n)).toBe(a);
        expect(applyMarkup(a, ONE)).toBe(2n * a);
      }),
    );
  });

  it('a line total rounds once: quantity × trade × (1 + markup) from unrounded factors', () => {
    // 3 × 10.00005 × 1.35: the unit rate 13.5000675 would display as 13.5001, but the total is 40.5002025 → 40.5002
    expect(lineTotal4(30000n, 100000n + 0n, 3500n)).toBe(405000n);
    expect(lineTotal4(30000n, 100001n, 3500n)).toBe(divRound(30000n * 100001n * 13500n, 10n ** 8n));
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.bigInt({ min: 0n, max: 10n ** 10n }),
        fc.bigInt({ min: 0n, max: 50000n }),
        (q, rate, m) => {
          const exact8 = q * rate * (ONE + m); // scale 12
          expect(lineTotal4(q, rate, m)).toBe(divRound(exact8, 10n ** 8n));
        },
      ),
    );
  });
});

describe('amount strings', () => {
  it('accepts only scale-4 integer strings', () => {
    for (const ok of ['0', '12500000', '-1', '123456789012345678901234567890']) expect(isAmount4(ok)).toBe(true);
    for (const bad of ['', '-0', '01', '1.5', '12.34567', '1e3', ' 1', '+1', '0x10', '1'.repeat(65)])
      expect(isAmount4(bad)).toBe(false);
  });

  it('round-trips every integer it accepts', () => {
    fc.assert(
      fc.property(amount, (a) => {
        expect(parseAmount4(a.toString())).toBe(a);
      }),
    );
  });

  it('displays at two places with grouping, rounding half away from zero', () => {
    expect(displayAmount(12500000n)).toBe('1,250.00');
    expect(displayAmount(125n)).toBe('0.01');
    expect(displayAmount(-125n)).toBe('-0.01');
    expect(displayAmount(1234567890n)).toBe('123,456.79');
  });
});

describe('roundToPlaces: display figures rounded once from exact factors', () => {
  it('rounds an exact amount at any scale to a number of decimals, half away from zero, as scale 4', () => {
    // 164.60481811 (scale 8) → 164.60; 0.005 → 0.01; -0.005 → -0.01; 1,234.5 at no decimals → 1,235.
    expect(roundToPlaces(16_460_481_811n, 8, 2)).toBe(1_646_000n);
    expect(roundToPlaces(500_000n, 8, 2)).toBe(100n);
    expect(roundToPlaces(-500_000n, 8, 2)).toBe(-100n);
    expect(roundToPlaces(12_345_000n, 4, 0)).toBe(12_350_000n);
    expect(roundToPlaces(12_345n, 4, 4)).toBe(12_345n);
  });

  it('rounds once: never what rounding to scale 4 first and then to two places gives on a tie', () => {
    // 1.23495 rounds to 1.23; rounded to scale 4 first it would be 1.2350, which then ties up to 1.24.
    expect(roundToPlaces(123_495_000n, 8, 2)).toBe(12_300n);
    expect(roundToPlaces(divRound(123_495_000n, ONE), 4, 2)).toBe(12_400n);
  });

  it('knows the minor units of the currencies taken', () => {
    expect(minorUnits('GBP')).toBe(2);
    expect(minorUnits('JPY')).toBe(0);
  });
});
