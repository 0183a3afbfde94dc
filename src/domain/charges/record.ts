import { z } from 'zod';
import { CHARGE_TYPES, type Currency as CurrencyCode } from '../../../db/vocabulary.js';
import { priced } from '../../core/schema-marks.js';
import {
  boundedRatio,
  Currency,
  Id,
  Markup,
  Money,
  named,
  PriceAmount4,
  QuantityAmount4,
  Ratio,
  Timestamp,
} from '../../core/values.js';
import { type ColumnsCodec, defineRecord, field, type TableOf } from '../kit/record.js';

export const ChargeType = z
  .enum(CHARGE_TYPES)
  .describe(
    'design_fee (fixedAmount), time (hours × hourlyRate), reimbursable, disbursement or freight (cost, optional handlingMarkup). list_charge_types says more.',
  );
named(ChargeType, 'ChargeType');

/** A calendar date, YYYY-MM-DD, that exists (no 2026-02-30). */
export const CalendarDate = z.iso.date('A date is written YYYY-MM-DD and exists, e.g. 2026-11-27.');

/** An amount a caller sends for a charge: the currency is the project's, so only the amount travels. */
const AmountInput = z.strictObject({ amount4: PriceAmount4 }).describe('{ amount4 } in the project currency.');
const Hours = z.strictObject({ amount4: QuantityAmount4 }).describe('Hours as a scale-4 string: "75000" = 7.5 hours.');
named(Hours, 'Hours');

type AmountColumn = 'amount4' | 'hourly_rate4' | 'cost4';

/** A money figure kept as its amount column and answered as money in the charge's currency. */
function moneyColumn<C extends AmountColumn>(
  column: C,
): ColumnsCodec<{ amount4: string } | null, { [K in C]: string | null }, z.input<typeof Money> | null> {
  return {
    toColumns: (v) => ({ [column]: v?.amount4 ?? null }) as { [K in C]: string | null },
    fromRow: (row) => {
      const amount4 = row[column] as string | null;
      return amount4 === null ? null : { amount4, currency: row.currency as CurrencyCode };
    },
  };
}

const ratioCodec = {
  toColumn: (v: { ratio4: string } | null) => v?.ratio4 ?? null,
  fromColumn: (c: unknown) => (c === null ? null : { ratio4: c as string }),
};

const moneyFigure = (column: AmountColumn, what: string) =>
  field(priced(AmountInput.nullable()).describe(`${what} Needs pricing:write; null clears it.`), {
    write: 'always',
    output: priced(Money.nullable()).optional().describe(`${what} Needs pricing:read; null when its type takes none.`),
    columns: moneyColumn(column),
  });

/** Net, tax and gross of a charge, worked out on every read (see figures.ts); priced like its figures. */
const computedMoney = (what: string) => priced(Money).optional().describe(`${what} Needs pricing:read.`);

/**
 * A project charge: what the studio bills besides goods. Its type says which figures it takes; its tax rate defaults
 * to the studio's; its currency is its project's; net, tax and gross are computed. Once invoiced it never changes.
 */
export const PROJECT_CHARGE_RECORD = defineRecord({
  name: 'ProjectCharge',
  description:
    "A charge the studio bills on a project besides goods: a design fee, time, a reimbursable, a disbursement or freight, with its net, tax and gross in the project's currency.",
  table: 'project_charges',
  owner: 'project',
  archivable: true,
  archivedMeans: 'Set when archived (no longer billed); charges are never deleted.',
  fields: {
    projectId: field(Id, { owner: true }),
    type: field(ChargeType, { write: 'always', required: true }),
    description: field(
      z
        .string()
        .trim()
        .min(1)
        .max(2000)
        .describe('What the client sees on the invoice, e.g. "Concept design, stage 2".'),
      { write: 'always', required: true },
    ),
    date: field(CalendarDate.describe('The day the charge is for, YYYY-MM-DD; default today.'), {
      write: 'always',
      column: 'charge_date',
    }),
    fixedAmount: moneyFigure('amount4', 'design_fee: the fee, net of tax.'),
    hours: field(Hours.nullable().describe('time: the hours worked; null clears it.'), {
      write: 'always',
      column: 'hours4',
      codec: {
        toColumn: (v: { amount4: string } | null) => v?.amount4 ?? null,
        fromColumn: (c: unknown) => (c === null ? null : { amount4: c as string }),
      },
    }),
    hourlyRate: moneyFigure('hourly_rate4', 'time: the rate per hour, net of tax.'),
    cost: moneyFigure('cost4', 'reimbursable, disbursement, freight: what the studio paid, net of tax.'),
    handlingMarkup: field(
      priced(Markup.nullable()).describe(
        'reimbursable, disbursement, freight: a handling charge on the cost, "1250" = 12.5%; null for none. Needs pricing:write.',
      ),
      {
        write: 'always',
        output: priced(Ratio.nullable())
          .optional()
          .describe('The handling charge on the cost, "1250" = 12.5%; null for none. Needs pricing:read.'),
        column: 'handling_markup4',
        codec: ratioCodec,
      },
    ),
    taxRate: field(
      boundedRatio(10_000n, 'A tax rate').describe(
        '"2000" = 20%; at most 100%. Default: the studio\'s taxRate (get_studio_settings).',
      ),
      {
        write: 'always',
        output: Ratio.describe('The tax on the net, "2000" = 20%.'),
        column: 'tax_rate4',
        codec: { toColumn: (v: { ratio4: string }) => v.ratio4, fromColumn: (c: unknown) => ({ ratio4: c as string }) },
      },
    ),
    currency: field(Currency.describe("The project's currency when the charge was made.")),
    invoicedAt: field(
      Timestamp.nullable().describe('When it was invoiced; from then on it never changes. Null until then.'),
    ),
    invoiceReference: field(z.string().nullable().describe("The invoice it is on, in the accounting system's words.")),
  },
  computed: {
    net: computedMoney('Before tax, rounded once to the minor unit of the currency.'),
    tax: computedMoney('net × taxRate, rounded once to the minor unit.'),
    gross: computedMoney('net + tax.'),
  },
});

export type ProjectChargeRow = TableOf<typeof PROJECT_CHARGE_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    project_charges: ProjectChargeRow;
  }
}
