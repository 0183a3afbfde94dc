/**
 * The client's words (src/domain/documents/client-words.ts), the one place the share page, the estimate page, the
 * PDFs and the exports take counts, quantities and lead times from.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allWholeWeeks, clientWords, localeOf, pluralNoun } from '../../src/domain/documents/client-words.js';

const words = clientWords('en-GB');

describe('client words', () => {
  it('puts counts in the plural the locale asks for', () => {
    expect(words.count(1, 'piece')).toBe('1 piece');
    expect(words.count(5, 'piece')).toBe('5 pieces');
    expect(words.count(0, 'room')).toBe('0 rooms');
    expect(words.count(1200, 'piece')).toBe('1,200 pieces');
    expect(words.count(2, 'piece is', 'pieces are')).toBe('2 pieces are');
  });

  it('writes units as studios write them: measures as symbols, countable units in the plural', () => {
    expect(words.quantity('50000', 'set')).toBe('5 sets');
    expect(words.quantity('10000', 'set')).toBe('1 set');
    expect(words.quantity('84000', 'metre')).toBe('8.4 m');
    expect(words.quantity('10000', 'metre')).toBe('1 m');
    expect(words.quantity('125000', 'square metre')).toBe('12.5 m²');
    expect(words.quantity('30000', 'pair')).toBe('3 pairs');
    expect(words.quantity('25000', 'roll')).toBe('2.5 rolls');
    expect(words.quantity('20000', 'each')).toBe('2 each');
    expect(words.quantity('20000', 'm²')).toBe('2 m²');
    expect(words.quantity('25000', null)).toBe('2.5');
    expect(words.quantity('20000', 'pair of curtains')).toBe('2 pairs of curtains');
    expect(words.quantity('20000', 'box')).toBe('2 boxes');
    expect(words.unit('50000', 'set')).toBe('sets');
  });

  it('gives lead times in weeks when whole weeks, in days otherwise, and In stock for none', () => {
    expect(words.leadTime(0)).toBe('In stock');
    expect(words.leadTime(7)).toBe('1 week');
    expect(words.leadTime(42)).toBe('6 weeks');
    expect(words.leadTime(1)).toBe('1 day');
    expect(words.leadTime(10)).toBe('10 days');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), (days) => {
        const text = words.leadTime(days);
        const [n, unit] = text.replace(',', '').split(' ') as [string, string];
        expect(Number(n) * (unit.startsWith('week') ? 7 : 1)).toBe(days);
        expect(unit.endsWith('s')).toBe(Number(n) !== 1);
      }),
    );
    expect(allWholeWeeks([7, 84, 0])).toBe(true);
    expect(allWholeWeeks([7, 10])).toBe(false);
  });

  it('makes English plurals and picks the region from the currency', () => {
    expect(pluralNoun('body')).toBe('bodies');
    expect(pluralNoun('bench')).toBe('benches');
    expect(pluralNoun('day')).toBe('days');
    expect(localeOf('GBP')).toBe('en-GB');
    expect(localeOf('USD')).toBe('en-US');
    expect(localeOf('CHF')).toBe('en-GB');
  });
});
