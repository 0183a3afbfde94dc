/**
 * The words of specification search, as properties: a size a studio types meets the size a specification holds,
 * whatever unit either is in, and never through a float.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dimensionTerms, fold, tokenize } from '../../src/domain/specifications/search-words.js';

const termsOf = (text: string) => tokenize(text).flatMap((t) => fold(t) ?? []);

describe('sizes in specification search', () => {
  it('finds a whole number of millimetres typed in mm, and in cm and m when it is whole there', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999 }), fc.constantFrom('', ' '), (mm, gap) => {
        const held = new Set(
          dimensionTerms({ unit: 'mm', width4: String(mm * 10_000), depth4: null, height4: null }).split(' '),
        );
        expect(held.has(termsOf(`${mm}${gap}mm`)[0]!)).toBe(true);
        if (mm % 10 === 0) expect(held.has(termsOf(`${mm / 10}${gap}cm`)[0]!)).toBe(true);
        if (mm % 100 === 0) expect(held.has(termsOf(`${mm / 1000}${gap}m`)[0]!)).toBe(true);
      }),
    );
  });

  it('holds the same terms for one length given in mm, cm or m', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999 }), (cm) => {
        const inMm = dimensionTerms({ unit: 'mm', width4: String(cm * 100_000), depth4: null, height4: null });
        const inCm = dimensionTerms({ unit: 'cm', width4: String(cm * 10_000), depth4: null, height4: null });
        const inM = dimensionTerms({ unit: 'm', width4: String(cm * 100), depth4: null, height4: null });
        expect(inCm).toBe(inMm);
        expect(inM).toBe(inMm);
      }),
    );
  });

  it('reads "2,000 mm", "2 m" and "1.8m" as one term each, and folds plurals', () => {
    expect(termsOf('oak dining table 2 m')).toEqual(['oak', 'dining', 'table', '2m']);
    expect(termsOf('Tables 2,000 mm wide')).toEqual(['table', '2000mm', 'wide']);
    expect(termsOf('1.8m benches.')).toEqual(['1.8m', 'bench']);
  });
});
