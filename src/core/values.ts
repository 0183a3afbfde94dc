import { z } from 'zod';
import { CURRENCIES, LINE_STATUSES, VALUE_STATES } from '../../db/vocabulary.js';
import { displayAmount, MAX_AMOUNT4_DIGITS, MAX_PRICE4, MAX_QUANTITY4 } from './money.js';
import { declareMoney } from './schema-marks.js';

/**
 * Gives a shared shape an id in zod's global registry (keeping its description), so that generated documents
 * reference it as one definition instead of repeating it.
 */
export function named<T extends z.ZodType>(schema: T, id: string): T {
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
  return schema;
}

export const Id = z
  .string()
  .min(1, 'An id is never empty; pass it exactly as this API returned it.')
  .max(64, 'No id is that long; pass it exactly as this API returned it.')
  .describe('An opaque id.');
named(Id, 'Id');
export const Timestamp = z
  .string()
  .meta({ format: 'date-time' })
  .describe('RFC 3339 UTC time, e.g. 2026-11-22T10:15:00.000Z.');
named(Timestamp, 'Timestamp');

export const Amount4 = z
  .string()
  .regex(
    new RegExp(`^(0|-?[1-9][0-9]{0,${MAX_AMOUNT4_DIGITS - 1}})$`),
    'An amount is a scale-4 integer in a string of at most 64 digits (e.g. "12500000" for 1,250.0000): digits only, no decimal point, and "-0" is not one.',
  )
  .describe('A scale-4 integer carried as a string: "12500000" = 1,250.0000.');
named(Amount4, 'Amount4');

export const Currency = z.enum(CURRENCIES).describe('ISO 4217 currency code.');
named(Currency, 'Currency');

export const Money = declareMoney(
  z.strictObject({ amount4: Amount4, currency: Currency }).describe('An amount of money.'),
);
named(Money, 'Money');

export const Quantity = z
  .strictObject({ amount4: Amount4, unitId: Id })
  .describe("A quantity in one of the studio's units.");
named(Quantity, 'Quantity');

export const Ratio = z
  .strictObject({ ratio4: Amount4 })
  .describe('A fraction as a scale-4 integer string: "3500" = 35%.');
named(Ratio, 'Ratio');

/**
 * A pattern for the whole numbers from 0 to `max` written without leading zeros, so a schema says the bound itself
 * (a published JSON Schema cannot run a refinement): for 100000, `0`, 1 to 5 digits not starting with 0, or 100000.
 */
export function digitsUpTo(max: bigint): string {
  const m = max.toString();
  if (/^9+$/.test(m)) return `^(0|[1-9][0-9]{0,${m.length - 1}})$`;
  const alts = ['0'];
  if (m.length > 1) alts.push(m.length > 2 ? `[1-9][0-9]{0,${m.length - 2}}` : '[1-9]');
  for (let i = 0; i < m.length; i++) {
    const d = Number(m[i]);
    const low = i === 0 ? 1 : 0;
    if (d - 1 < low) continue;
    const rest = m.length - i - 1;
    alts.push(`${m.slice(0, i)}[${low}-${d - 1}]${rest ? `[0-9]{${rest}}` : ''}`);
  }
  if (max > 0n) alts.push(m);
  return `^(${[...new Set(alts)].join('|')})$`;
}

/** A ratio between 0 and a maximum (scale 4), for rates that are never negative. */
export const boundedRatio = (maxRatio4: bigint, what: string) =>
  z.strictObject({
    ratio4: z
      .string()
      .regex(
        new RegExp(digitsUpTo(maxRatio4)),
        `${what} is a scale-4 integer string between "0" and "${maxRatio4}" ("10000" = 100%): digits only.`,
      ),
  });

/** A markup as callers set it: 0% to 1000%. */
export const Markup = boundedRatio(100_000n, 'A markup').describe('"3500" = 35%; between 0% and 1000%.');

/** An amount a caller sends: never negative and at most `max` (scale 4), so every figure derived from it fits. */
const boundedAmount4 = (max: bigint, what: string) =>
  z
    .string()
    .regex(
      new RegExp(digitsUpTo(max)),
      `${what} is a scale-4 integer string from "0" to "${max}" (${displayAmount(max, 4)}): digits only, no sign or decimal point.`,
    );

/** A unit price as callers set it: 0 to 99,999,999,999.9999. */
export const PriceAmount4 = named(boundedAmount4(MAX_PRICE4, 'A price'), 'PriceAmount4');
/** A quantity as callers set it: 0 to 99,999,999.9999 units. */
export const QuantityAmount4 = named(boundedAmount4(MAX_QUANTITY4, 'A quantity'), 'QuantityAmount4');

type ValueStateName = (typeof VALUE_STATES)[number];

export const ValueState = z
  .enum(VALUE_STATES)
  .describe('set: price given; tbc: to be confirmed; poa: price on application; included; by_others.');
named(ValueState, 'ValueState');

/** One of a line's four priced fields. `price` is present exactly when `state` is `set`. */
export const PricedField = z
  .strictObject({ price: Money.nullable(), state: ValueState })
  .describe('A priced field: price is null unless state is "set".');
named(PricedField, 'PricedField');

/**
 * What callers send for a priced field: the currency is the project's, so only the amount travels. One of two shapes,
 * told apart by `state` (published as a `oneOf`): `set` with its amount, or another state with none.
 */
export const PricedFieldInput = z
  .discriminatedUnion('state', [
    z.strictObject({ state: z.literal('set'), amount4: PriceAmount4 }),
    z.strictObject({
      state: z.enum(VALUE_STATES.filter((v) => v !== 'set') as [ValueStateName, ...ValueStateName[]]),
      amount4: z
        .null({ error: 'Only state "set" carries an amount; leave amount4 out (or null) for other states.' })
        .optional(),
    }),
  ])
  .describe('{ state: "set", amount4 }, or another state without amount4.');
named(PricedFieldInput, 'PricedFieldInput');

export const LineStatus = z.enum(LINE_STATUSES);
named(LineStatus, 'LineStatus');

export const Cursor = z.string().max(512).describe('nextCursor of the previous page.');

/** The page size of a list that declares none: 500, so a whole schedule is one request. */
export const DEFAULT_PAGE_SIZE = 500;

/**
 * A list's `limit` as published: its bounds and the default it pages at. Built only from the page size the list
 * declares (src/domain/kit/listing.ts), the number its query uses too, so the description cannot say another.
 */
export const pageLimit = (pageSize: number) => z.int().min(1).max(1000).describe(`Page size; default ${pageSize}.`);

export const page = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    items: z.array(item),
    nextCursor: z.string().nullable().describe('Pass as cursor to read the next page; null on the last page.'),
  });
