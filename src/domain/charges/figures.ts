import { CHARGE_TYPE_GUIDE, type ChargeType, type Currency } from '../../../db/vocabulary.js';
import { ServiceError } from '../../core/errors.js';
import { ONE, parseAmount4 } from '../../core/money.js';
import { type TaxedLine, taxedLine } from '../../core/taxed-lines.js';

/** A charge's figures as its row keeps them: scale-4 strings, null where its type takes none. */
export interface ChargeFigureColumns {
  type: ChargeType;
  amount4: string | null;
  hours4: string | null;
  hourly_rate4: string | null;
  cost4: string | null;
  handling_markup4: string | null;
  tax_rate4: string;
  currency: Currency;
}

type FigureColumn = 'amount4' | 'hours4' | 'hourly_rate4' | 'cost4' | 'handling_markup4';

/** Each figure's name in the API beside its column, in the order a refusal names them. */
const FIGURES: ReadonlyArray<readonly [string, FigureColumn]> = [
  ['fixedAmount', 'amount4'],
  ['hours', 'hours4'],
  ['hourlyRate', 'hourly_rate4'],
  ['cost', 'cost4'],
  ['handlingMarkup', 'handling_markup4'],
];

/** What each basis needs, and what it may take besides; every other figure stays null. */
export const TAKES = {
  fixed: { needs: ['fixedAmount'], may: [] },
  hourly: { needs: ['hours', 'hourlyRate'], may: [] },
  cost: { needs: ['cost'], may: ['handlingMarkup'] },
} as const satisfies Record<string, { needs: readonly string[]; may: readonly string[] }>;

const figure = (row: ChargeFigureColumns, column: FigureColumn) => {
  const v = row[column];
  return v === null ? null : parseAmount4(v);
};

/**
 * Net, tax and gross of a charge, as Xero computes an invoice line: the exact net (hours × rate, or cost × (1 +
 * markup), unrounded) rounded once to the currency's minor unit, tax on that net rounded once, gross their sum.
 */
export function chargeMoney(row: ChargeFigureColumns): TaxedLine {
  const tax4 = parseAmount4(row.tax_rate4);
  switch (CHARGE_TYPE_GUIDE[row.type].basis) {
    case 'fixed':
      return taxedLine(figure(row, 'amount4') ?? 0n, 4, tax4, row.currency);
    case 'hourly':
      return taxedLine((figure(row, 'hours4') ?? 0n) * (figure(row, 'hourly_rate4') ?? 0n), 8, tax4, row.currency);
    case 'cost':
      return taxedLine(
        (figure(row, 'cost4') ?? 0n) * (ONE + (figure(row, 'handling_markup4') ?? 0n)),
        8,
        tax4,
        row.currency,
      );
  }
}

/**
 * A charge's figures fit its type: the ones it needs are there and no other is. Refused with every field named, so
 * one answer says all there is to fix; a type change clears nothing by itself.
 */
export function assertFiguresFit(row: ChargeFigureColumns) {
  const takes: { needs: readonly string[]; may: readonly string[] } = TAKES[CHARGE_TYPE_GUIDE[row.type].basis];
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [name, column] of FIGURES) {
    const set = row[column] !== null;
    if (takes.needs.includes(name) && !set) missing.push(name);
    if (!takes.needs.includes(name) && !takes.may.includes(name) && set) extra.push(name);
  }
  if (!missing.length && !extra.length) return;
  const wants = [...takes.needs, ...takes.may.map((m) => `optionally ${m}`)].join(' and ');
  const steps = [
    ...(missing.length ? [`send ${missing.join(' and ')}`] : []),
    ...(extra.length ? [`clear ${extra.join(' and ')} with null`] : []),
  ];
  throw new ServiceError('VALIDATION_FAILED', `A ${row.type} charge takes ${wants}: ${steps.join('; ')}.`, {
    errors: [
      ...missing.map((path) => ({ path, message: `A ${row.type} charge needs ${path}.` })),
      ...extra.map((path) => ({ path, message: `A ${row.type} charge takes no ${path}.` })),
    ],
  });
}
