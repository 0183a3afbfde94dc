import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { depositOf, sumTaxed, taxedLine } from '../../src/core/taxed-lines.js';

describe('taxedLine: net and tax each rounded once per line, to the minor unit', () => {
  it('rounds the net first, then takes the tax of the rounded net', () => {
    // 3 × 33.3333 = 99.9999 → net 100.00; 20 % of 100.00 = 20.00.
    const line = taxedLine(3n * 333_333n * 10_000n, 8, 2000n, 'GBP');
    expect(line).toEqual({ net4: 1_000_000n, tax4: 200_000n, gross4: 1_200_000n });
  });

  it('rounds a half-penny of tax away from zero, and a yen amount to whole yen', () => {
    // 20 % of 0.05 = 0.01; 10 % of ¥15 = ¥1.5 → ¥2.
    expect(taxedLine(500n, 4, 2000n, 'GBP').tax4).toBe(100n);
    expect(taxedLine(150_000n, 4, 1000n, 'JPY')).toEqual({ net4: 150_000n, tax4: 20_000n, gross4: 170_000n });
  });

  it('sums rounded lines, so totals can differ from the tax of the summed nets (as Xero computes)', () => {
    // Three lines of 0.03 at 20 %: each tax 0.006 → 0.01, total 0.03; the tax of 0.09 would be 0.02.
    const lines = [1, 2, 3].map(() => taxedLine(300n, 4, 2000n, 'GBP'));
    expect(sumTaxed(lines)).toEqual({ net4: 900n, tax4: 300n, gross4: 1_200n });
  });

  it('keeps every figure on the minor unit and gross = net + tax', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 0n, max: 10_000n }), (n, r) => {
        const line = taxedLine(n, 8, r, 'EUR');
        expect(line.net4 % 100n).toBe(0n);
        expect(line.tax4 % 100n).toBe(0n);
        expect(line.gross4).toBe(line.net4 + line.tax4);
      }),
    );
  });
});

describe('depositOf: a percentage of the total including tax, rounded once', () => {
  it('takes 25 % of 1,234.57 as 308.64', () => {
    expect(depositOf(12_345_700n, 2500n, 'GBP')).toBe(3_086_400n);
  });

  it('refuses a percentage outside 0–100 %', () => {
    expect(() => depositOf(100n, 10_001n, 'GBP')).toThrow(RangeError);
    expect(() => depositOf(100n, -1n, 'GBP')).toThrow(RangeError);
  });
});
