/**
 * Properties of charges. The money: whatever figures a caller may send, net, tax and gross sit on the currency's minor
 * unit and gross = net + tax (the domain function, many cases, and through the API, fewer). The lock: an invoiced
 * charge never changes, whatever sequence of updates and archivals is tried on it, while a charge beside it that is
 * not invoiced takes every one of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHARGE_TYPES, type Currency } from '../../db/vocabulary.js';
import { MAX_PRICE4, MAX_QUANTITY4 } from '../../src/core/money.js';
import { chargeMoney } from '../../src/domain/charges/figures.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';
import type { Trpc } from '../helpers/clients.js';
import { codeOf } from '../helpers/calls.js';
import { createCharge, fee, markInvoiced } from './fixture.js';

let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened));

const amount = (max: bigint) =>
  fc.oneof(fc.constant(max), fc.constant(0n), fc.bigInt({ min: 0n, max }), fc.bigInt({ min: 0n, max: 10_000_000n }));
const ratio = (max: bigint) => fc.oneof(fc.constant(0n), fc.constant(max), fc.bigInt({ min: 0n, max }));

/** Any charge a caller could make: a type, every figure (the type reads only its own), a tax rate, a currency. */
const anyCharge = fc.record({
  type: fc.constantFrom(...CHARGE_TYPES),
  amount4: amount(MAX_PRICE4),
  hours4: amount(MAX_QUANTITY4),
  hourly_rate4: amount(MAX_PRICE4),
  cost4: amount(MAX_PRICE4),
  handling_markup4: ratio(100_000n),
  tax_rate4: ratio(10_000n),
  currency: fc.constantFrom<Currency>('GBP', 'JPY', 'EUR'),
});

const minorUnit = (currency: Currency) => (currency === 'JPY' ? 10_000n : 100n);

describe('the money of a charge', () => {
  it('is on the minor unit, never negative, and gross = net + tax, for any figures', () => {
    fc.assert(
      fc.property(anyCharge, (c) => {
        const m = chargeMoney({
          ...c,
          amount4: String(c.amount4),
          hours4: String(c.hours4),
          hourly_rate4: String(c.hourly_rate4),
          cost4: String(c.cost4),
          handling_markup4: String(c.handling_markup4),
          tax_rate4: String(c.tax_rate4),
        });
        const unit = minorUnit(c.currency);
        for (const n of [m.net4, m.tax4, m.gross4]) {
          expect(n % unit).toBe(0n);
          expect(n >= 0n).toBe(true);
        }
        expect(m.gross4).toBe(m.net4 + m.tax4);
        expect(m.tax4 <= m.net4).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is answered the same way by the API, as digits on the penny', async () => {
    await fc.assert(
      fc.asyncProperty(amount(MAX_PRICE4), amount(MAX_QUANTITY4), ratio(10_000n), async (rate, hours, tax) => {
        const c = await createCharge(owner, {
          projectId: app.projectId,
          type: 'time',
          description: 'Generated time',
          hours: { amount4: String(hours) },
          hourlyRate: { amount4: String(rate) },
          taxRate: { ratio4: String(tax) },
        });
        const [net, taxed, gross] = [c.net!, c.tax!, c.gross!].map((m) => BigInt(m.amount4));
        expect([net! % 100n, taxed! % 100n, gross! % 100n]).toEqual([0n, 0n, 0n]);
        expect(gross).toBe(net! + taxed!);
      }),
      { numRuns: 15 },
    );
  });
});

/** One act an agent may try on a charge: change some of its fields, or archive it. */
const anAct = fc.oneof(
  fc.record({
    kind: fc.constant('update' as const),
    description: fc.option(
      fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0),
      {
        nil: undefined,
      },
    ),
    fixedAmount: fc.option(
      amount(MAX_PRICE4).map((n) => ({ amount4: String(n) })),
      { nil: undefined },
    ),
    date: fc.option(fc.constantFrom('2026-01-31', '2026-06-15', '2027-02-28'), { nil: undefined }),
    taxRate: fc.option(
      ratio(10_000n).map((n) => ({ ratio4: String(n) })),
      { nil: undefined },
    ),
  }),
  fc.constant({ kind: 'archive' as const }),
);

describe('an invoiced charge', () => {
  it('never changes whatever sequence of acts is tried, while one not invoiced takes them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anAct, { minLength: 1, maxLength: 5 }), async (acts) => {
        const projectId = app.projectId;
        const locked = await createCharge(owner, fee(projectId, '12345678'));
        await markInvoiced(app.database, locked.id);
        const frozen = await owner.charges.getProjectCharge.query({ projectId, chargeId: locked.id });
        const open = await createCharge(owner, fee(projectId, '12345678'));
        let openVersion = open.version;
        let openArchived = false;
        for (const act of acts) {
          const { kind, ...patch } = act;
          const fields = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
          const tryOn = (chargeId: string, expectedVersion: number) =>
            kind === 'archive'
              ? owner.charges.archiveProjectCharge.mutate({ projectId, chargeId, expectedVersion })
              : owner.charges.updateProjectCharge.mutate({ projectId, chargeId, expectedVersion, ...fields });
          expect(await codeOf(tryOn(locked.id, frozen.version))).toBe('CHARGE_INVOICED');
          if (openArchived || (kind === 'update' && !Object.keys(fields).length)) continue;
          const after = await tryOn(open.id, openVersion);
          openVersion = after.version;
          openArchived = after.archived_at !== null;
        }
        expect(await owner.charges.getProjectCharge.query({ projectId, chargeId: locked.id })).toEqual(frozen);
      }),
      { numRuns: 12 },
    );
  });
});
