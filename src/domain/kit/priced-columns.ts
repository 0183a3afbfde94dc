import type { z } from 'zod';
import type { Currency, ValueState } from '../../../db/vocabulary.js';
import type { PricedField } from '../../core/values.js';
import type { ColumnsCodec } from './record.js';

/** A priced field as callers send it (PricedFieldInput): the amount only with state `set`. */
export interface PricedInput {
  amount4?: string | null;
  state: ValueState;
}

export type PricedColumns<S extends string, A extends string> = { [K in S]: ValueState } & {
  [K in A]: string | null;
};

/** Where a priced field's currency is read: the row's own currency column unless said otherwise. */
type CurrencyOf = (row: Record<string, unknown>, context: unknown) => Currency;
const rowCurrency: CurrencyOf = (row) => row.currency as Currency;

/**
 * A priced field kept as a line keeps it, a state column and an amount column (the amount only when the state is
 * `set`), and answered as a price: `{ price: Money | null, state }`. The currency is the row's `currency` column, or
 * where `currencyOf` finds it (a line's is its project's, handed to `present` as its context).
 */
export function pricedColumns<S extends string, A extends string>(
  state: S,
  amount: A,
  currencyOf: CurrencyOf = rowCurrency,
): ColumnsCodec<PricedInput, PricedColumns<S, A>, z.input<typeof PricedField>> {
  return {
    toColumns: (p) =>
      ({ [state]: p.state, [amount]: p.state === 'set' ? (p.amount4 ?? null) : null }) as PricedColumns<S, A>,
    fromRow: (row, context) => {
      const amount4 = row[amount] as string | null;
      const set = row[state] === 'set' && amount4 !== null;
      return { price: set ? { amount4, currency: currencyOf(row, context) } : null, state: row[state] };
    },
  };
}
