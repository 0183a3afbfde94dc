import type { LineRow } from './record.js';
import type { ValueState } from '../../../db/vocabulary.js';
import { applyMarkup, divRound, lineTotal4, ONE, parseAmount4 } from '../../core/money.js';

type PricedRow = Pick<LineRow, 'trade_state' | 'trade4' | 'client_state' | 'client4' | 'markup4' | 'quantity4'>;

export interface DerivedPricing {
  /** The client unit rate as shown: exact when set by hand, trade × (1 + markup) rounded for display otherwise. */
  client: { price4: bigint | null; state: ValueState; source: 'derived' | 'manual' };
  /**
   * The client unit rate before any rounding, at scale 8 (a derived rate is trade4 × (1 + markup)4): what a display
   * rounding starts from, so a shown rate is rounded once.
   */
  clientRate8: bigint | null;
  /** quantity × unrounded rate, rounded once. */
  clientTotal4: bigint | null;
  /** Client minus trade per unit, from unrounded factors. */
  margin4: bigint | null;
  /** The markup in force: the line's, else the project's, else the studio's. */
  markup4: bigint;
}

export function derivePricing(row: PricedRow, defaultMarkup4: string): DerivedPricing {
  const markup4 = parseAmount4(row.markup4 ?? defaultMarkup4);
  const quantity4 = parseAmount4(row.quantity4);
  const trade4 = row.trade_state === 'set' && row.trade4 !== null ? parseAmount4(row.trade4) : null;
  if (row.client_state !== null) {
    const manual4 = row.client_state === 'set' && row.client4 !== null ? parseAmount4(row.client4) : null;
    return {
      client: { price4: manual4, state: row.client_state, source: 'manual' },
      clientRate8: manual4 === null ? null : manual4 * ONE,
      clientTotal4: manual4 === null ? null : lineTotal4(quantity4, manual4),
      margin4: manual4 !== null && trade4 !== null ? manual4 - trade4 : null,
      markup4,
    };
  }
  if (trade4 === null) {
    return {
      client: { price4: null, state: row.trade_state, source: 'derived' },
      clientRate8: null,
      clientTotal4: null,
      margin4: null,
      markup4,
    };
  }
  return {
    client: { price4: applyMarkup(trade4, markup4), state: 'set', source: 'derived' },
    clientRate8: trade4 * (ONE + markup4),
    clientTotal4: lineTotal4(quantity4, trade4, markup4),
    margin4: divRound(trade4 * markup4, ONE),
    markup4,
  };
}
