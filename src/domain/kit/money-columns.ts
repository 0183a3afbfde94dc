/**
 * How a document's figures are kept: ratios and quantities as their scale-4 text, and net, tax and gross as three
 * scale-4 columns beside the row's currency column (an estimate's or an order's revision totals).
 */
import type { Currency } from '../../../db/vocabulary.js';
import type { Codec } from './record.js';

/** A ratio (a tax rate, a deposit) kept as its scale-4 text. */
export const asRatio: Codec<{ ratio4: string }, string> = {
  toColumn: (v) => v.ratio4,
  fromColumn: (c) => ({ ratio4: c }),
};

/** A quantity kept as its scale-4 text. */
export const asQuantity: Codec<{ amount4: string }, string> = {
  toColumn: (q) => q.amount4,
  fromColumn: (c) => ({ amount4: c }),
};

type Money = { amount4: string; currency: Currency };

/** Net, tax and gross kept as `<prefix>net4`, `<prefix>tax4` and `<prefix>gross4` beside the row's currency. */
export const figuresColumns = <P extends string>(prefix: P) => {
  const [n, t, g] = [`${prefix}net4`, `${prefix}tax4`, `${prefix}gross4`];
  type Cols = { [K in `${P}net4` | `${P}tax4` | `${P}gross4`]: string };
  return {
    toColumns: (v: { net: { amount4: string }; tax: { amount4: string }; gross: { amount4: string } }) =>
      ({ [n]: v.net.amount4, [t]: v.tax.amount4, [g]: v.gross.amount4 }) as Cols,
    fromRow: (row: Record<string, unknown>): { net: Money; tax: Money; gross: Money } => {
      const currency = row.currency as Currency;
      const m = (c: string) => ({ amount4: row[c] as string, currency });
      return { net: m(n), tax: m(t), gross: m(g) };
    },
  };
};
