/**
 * Extreme money: whatever prices, quantities and markups callers may set, every priced read (the line, the schedule,
 * the project's totals, a project's charges) still answers, with every amount a string of digits. What callers may
 * not set (beyond the bounds, negative, fractional) is refused with 400 naming the field, and changes nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PRICE4, MAX_QUANTITY4 } from '../../src/core/money.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { trpcFailure } from '../helpers/calls.js';
import { uuid } from '../helpers/ids.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
let lineIds: string[];
beforeAll(async () => {
  app = await createTestApp();
  owner = trpc(app.url, app.token);
  const lines = await owner.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 3 });
  lineIds = lines.items.map((l) => l.id);
});
afterAll(async () => app?.close());

/** Every `amount4` / `ratio4` anywhere in a body. */
function amounts(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) amounts(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'amount4' || k === 'ratio4') && v !== null) out.push(v as string);
      else amounts(v, out);
    }
  }
  return out;
}

const amount = (max: bigint) => fc.bigInt({ min: 0n, max }).map(String);
/** Mostly the extremes, where overflow lives, and some ordinary values. */
const extreme = (max: bigint) => fc.oneof(fc.constant(String(max)), fc.constant('0'), amount(max));

describe('every priced read answers at the bounds', () => {
  it('for random extreme prices, quantities, line and project markups', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          trade: extreme(MAX_PRICE4),
          client: fc.option(extreme(MAX_PRICE4), { nil: undefined }),
          delivery: extreme(MAX_PRICE4),
          quantity: extreme(MAX_QUANTITY4),
          markup: fc.option(extreme(100_000n), { nil: null }),
          projectMarkup: fc.option(extreme(100_000n), { nil: null }),
          line: fc.integer({ min: 0, max: 2 }),
        }),
        async (p) => {
          const lineId = lineIds[p.line]!;
          const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
          await owner.projects.updateProjectDetails.mutate({
            projectId: app.projectId,
            expectedVersion: project.version,
            defaultMarkup: p.projectMarkup === null ? null : { ratio4: p.projectMarkup },
          });
          const before = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId });
          await owner.schedule.updateScheduleLine.mutate({
            projectId: app.projectId,
            lineId,
            expectedVersion: before.version,
            patch: {
              tradePrice: { state: 'set', amount4: p.trade },
              clientPrice: p.client === undefined ? null : { state: 'set', amount4: p.client },
              deliveryPrice: { state: 'set', amount4: p.delivery },
              quantity: { amount4: p.quantity },
              markup: p.markup === null ? null : { ratio4: p.markup },
            },
          });
          const reads = [
            await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${lineId}`, { token: app.token }),
            await http(app.url, 'GET', `/v1/projects/${app.projectId}/items`, { token: app.token }),
            await http(
              app.url,
              'GET',
              `/api/trpc/projects.getProjectTotals?input=${encodeURIComponent(JSON.stringify({ projectId: app.projectId }))}`,
              { token: app.token },
            ),
          ];
          for (const r of reads) {
            expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
            for (const a of amounts(r.body)) expect(a).toMatch(/^-?(0|[1-9][0-9]*)$/);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('amounts beyond what a caller may set are refused, naming the field, changing nothing', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'a price over the bound',
      { tradePrice: { state: 'set', amount4: String(MAX_PRICE4 + 1n) } },
      'tradePrice.amount4',
    ],
    ['a 30-digit price', { retailPrice: { state: 'set', amount4: '9'.repeat(30) } }, 'retailPrice.amount4'],
    ['a negative price', { deliveryPrice: { state: 'set', amount4: '-1' } }, 'deliveryPrice.amount4'],
    ['a quantity over the bound', { quantity: { amount4: String(MAX_QUANTITY4 + 1n) } }, 'quantity.amount4'],
    ['a markup over 1000%', { markup: { ratio4: '100001' } }, 'markup.ratio4'],
    ['a fractional markup', { markup: { ratio4: '1.5' } }, 'markup.ratio4'],
  ];

  it.each(cases)('%s', async (_name, patch, field) => {
    const lineId = lineIds[0]!;
    const before = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${lineId}`, { token: app.token });
    const res = await http(app.url, 'PATCH', `/v1/projects/${app.projectId}/items/${lineId}`, {
      token: app.token,
      headers: { 'if-match': before.headers.get('etag')! },
      body: patch,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
    const after = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${lineId}`, { token: app.token });
    expect(after.body.version).toBe(before.body.version);
  });
});

describe('charges at the bounds', () => {
  const trpcGet = (path: string, input: object) =>
    http(app.url, 'GET', `/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { token: app.token });

  it('every figure at its extreme still answers net, tax and gross as digits, in the charge and the list', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          hours: extreme(MAX_QUANTITY4),
          rate: extreme(MAX_PRICE4),
          cost: extreme(MAX_PRICE4),
          markup: extreme(100_000n),
          fixed: extreme(MAX_PRICE4),
          tax: extreme(10_000n),
          kind: fc.constantFrom('time' as const, 'reimbursable' as const, 'design_fee' as const),
        }),
        async (p) => {
          const figures =
            p.kind === 'time'
              ? { hours: { amount4: p.hours }, hourlyRate: { amount4: p.rate } }
              : p.kind === 'reimbursable'
                ? { cost: { amount4: p.cost }, handlingMarkup: { ratio4: p.markup } }
                : { fixedAmount: { amount4: p.fixed } };
          const c = await owner.charges.createProjectCharge.mutate({
            projectId: app.projectId,
            type: p.kind,
            description: 'Extreme',
            taxRate: { ratio4: p.tax },
            ...figures,
            commandKey: uuid(),
          });
          const reads = [
            await trpcGet('charges.getProjectCharge', { projectId: app.projectId, chargeId: c.id }),
            await trpcGet('charges.listProjectCharges', { projectId: app.projectId, type: p.kind, sort: '-createdAt' }),
          ];
          for (const r of reads) {
            expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
            for (const a of amounts(r.body)) expect(a).toMatch(/^-?(0|[1-9][0-9]*)$/);
          }
          expect(BigInt(c.gross!.amount4)).toBe(BigInt(c.net!.amount4) + BigInt(c.tax!.amount4));
        },
      ),
      { numRuns: 30 },
    );
  });

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['an hourly rate over the bound', { hourlyRate: { amount4: String(MAX_PRICE4 + 1n) } }, 'hourlyRate.amount4'],
    ['hours over the bound', { hours: { amount4: String(MAX_QUANTITY4 + 1n) } }, 'hours.amount4'],
    ['negative hours', { hours: { amount4: '-10000' } }, 'hours.amount4'],
    ['a 30-digit rate', { hourlyRate: { amount4: '9'.repeat(30) } }, 'hourlyRate.amount4'],
    ['a tax rate over 100%', { taxRate: { ratio4: '10001' } }, 'taxRate.ratio4'],
    ['a fractional tax rate', { taxRate: { ratio4: '20.5' } }, 'taxRate.ratio4'],
  ];

  it.each(refused)('%s is refused, naming the field, and nothing is made', async (_name, figures, field) => {
    const before = await owner.charges.listProjectCharges.query({ projectId: app.projectId, archived: 'include' });
    const err = await trpcFailure(
      owner.charges.createProjectCharge.mutate({
        projectId: app.projectId,
        type: 'time',
        description: 'Out of bounds',
        hours: { amount4: '10000' },
        hourlyRate: { amount4: '10000' },
        ...figures,
        commandKey: uuid(),
      } as never),
    );
    expect(err.data?.serviceCode).toBe('VALIDATION_FAILED');
    expect(err.data?.errors?.map((e) => e.path)).toContain(field);
    const after = await owner.charges.listProjectCharges.query({ projectId: app.projectId, archived: 'include' });
    expect(after.items.length).toBe(before.items.length);
  });
});
