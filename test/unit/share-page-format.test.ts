/** Figures on the client page: formatted from the scale-4 strings, exactly, in the currency's own minor unit. */
import { describe, expect, it } from 'vitest';
import {
  decimalOf,
  formatDate,
  formatMoney,
  formatNumber,
  formatPropertyValue,
} from '../../src/surfaces/share-page/format.js';

describe('share page formatting', () => {
  it('reads a scale-4 string as an exact decimal, signs and leading zeros included', () => {
    expect(decimalOf('12500000')).toBe('1250.0000');
    expect(decimalOf('5')).toBe('0.0005');
    expect(decimalOf('-5')).toBe('-0.0005');
    expect(decimalOf('0')).toBe('0.0000');
  });

  it('formats money with its symbol and minor unit, exactly even beyond what a float holds', () => {
    expect(formatMoney({ amount4: '12500000', currency: 'GBP' })).toBe('£1,250.00');
    expect(formatMoney({ amount4: '9876543210000', currency: 'EUR' })).toBe('€987,654,321.00');
    expect(formatMoney({ amount4: '120000000', currency: 'JPY' })).toBe('¥12,000');
    // 17 significant digits: a float would round the last ones.
    expect(formatMoney({ amount4: '999999999999999990000', currency: 'USD' })).toBe('$99,999,999,999,999,999.00');
    expect(formatMoney({ amount4: '-35000', currency: 'GBP' })).toBe('-£3.50');
  });

  it('formats quantities without needless decimals', () => {
    expect(formatNumber('20000')).toBe('2');
    expect(formatNumber('35000')).toBe('3.5');
    expect(formatNumber('12345678')).toBe('1,234.5678');
  });

  it('formats dates and property values for people', () => {
    expect(formatDate('2026-11-22T23:59:00.000Z')).toBe('22 November 2026');
    expect(formatPropertyValue(true)).toBe('Yes');
    expect(formatPropertyValue(['Oak', 'Ash'])).toBe('Oak, Ash');
    expect(formatPropertyValue({ amount4: '15000' })).toBe('1.5');
    expect(formatPropertyValue({ amount4: '15000', currency: 'GBP' })).toBe('£1.50');
  });
});
