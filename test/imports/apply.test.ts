/**
 * The apply an import commit (and paste) runs, tested directly inside one write transaction of the real store, as the
 * operation worker will run it: 10,000 rows become 10,000 lines in one transaction, with their sections, suppliers,
 * codes and positions, reporting progress; and a failure part-way (here thrown from the progress callback after the
 * first batch is written) leaves nothing at all: no line, section, supplier or audit event.
 */
import { describe, expect, it } from 'vitest';
import type { ActionContext, AuditInput } from '../../src/core/context.js';
import { authenticate } from '../../src/core/auth.js';
import { appendAuditEvents, actorOf } from '../../src/core/audit.js';
import { nowIso } from '../../src/core/ids.js';
import { applyPlan } from '../../src/domain/imports/apply.js';
import { proposeMapping } from '../../src/domain/imports/headings.js';
import { readLookups } from '../../src/domain/imports/lookups.js';
import { planImport } from '../../src/domain/imports/plan.js';
import { countRows, fromOutside } from '../helpers/fixtures.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';

let app: TestApp;

openTestApp((opened) => ({ app } = opened));

/** A schedule of `n` lines: a heading row (a new section) every 500 rows, 40 suppliers, prices written every way. */
function schedule(n: number): string[][] {
  const rows: string[][] = [['Item', 'Qty', 'Supplier', 'Net', 'Sell', 'Lead time']];
  const prices = ['£1,250.00', '1250.5', '1,250.5', 'TBC', 'POA', 'incl.', 'by others', '0.3'];
  for (let i = 0; i < n; i++) {
    if (i % 500 === 0) rows.push([`Floor ${i / 500 + 1}`]);
    rows.push([
      `Item ${i + 1}`,
      String((i % 7) + 1),
      `Bulk Supplier ${i % 40}`,
      prices[i % prices.length]!,
      '',
      '6 weeks',
    ]);
  }
  return rows;
}

/** Runs `fn` in one write transaction of the app's store with an action context for the demo owner. */
async function inTransaction<T>(fn: (ctx: ActionContext) => Promise<T>): Promise<T> {
  const caller = await authenticate(app.rt.store, app.token);
  return app.rt.store.write(async (db, queryRow, memo) => {
    const events: AuditInput[] = [];
    const now = nowIso();
    const ctx: ActionContext = {
      db,
      queryRow,
      config: app.rt.config,
      caller,
      studioId: caller.studioId,
      now,
      requestId: 'apply-test',
      audit: (e) => void events.push(e),
      unchanged: () => undefined,
      afterCommit: (fn) => fn(),
    };
    const out = await fn(ctx);
    // As invoke does: the events in the same transaction as the change.
    await appendAuditEvents(
      { db: db, memo },
      { studioId: caller.studioId, actor: actorOf(caller), action: 'apply_test', at: now, events },
    );
    return out;
  });
}

const counts = async () => ({
  lines: await countRows(app.database, 'lines'),
  sections: await countRows(app.database, 'sections'),
  suppliers: await countRows(app.database, 'suppliers'),
  audit: await countRows(app.database, 'audit_events'),
});

const planFor = (ctx: ActionContext, rows: string[][]) =>
  readLookups(ctx.db, ctx.studioId, app.projectId).then((lookups) => planImport(rows, proposeMapping(rows), lookups));

describe('applyPlan', () => {
  it('leaves nothing when it fails part-way, after lines, sections and suppliers were written', async () => {
    const before = await counts();
    let written = 0;
    const failure = await inTransaction(async (ctx) => {
      const plan = await planFor(ctx, schedule(2_000));
      return applyPlan(ctx, app.projectId, plan, {
        audit: { targetKind: 'project', targetId: app.projectId, summary: () => 'test' },
        onProgress: (done) => {
          written = done;
          throw new Error('the worker died');
        },
      });
    }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).toBe('the worker died');
    expect(written).toBeGreaterThan(0);
    expect(await counts()).toEqual(before);
  });

  it('writes 10,000 rows as 10,000 lines in one transaction, with sections, suppliers, codes and positions', async () => {
    const before = await counts();
    const progress: number[] = [];
    const started = performance.now();
    const { result } = await inTransaction(async (ctx) => {
      const plan = await planFor(ctx, schedule(10_000));
      expect(plan.counts).toMatchObject({ lines: 10_000, errors: 0, headingRows: 20 });
      return applyPlan(ctx, app.projectId, plan, {
        audit: { targetKind: 'project', targetId: app.projectId, summary: (r) => `Imported ${r.lines} lines` },
        onProgress: (done, total) => {
          expect(total).toBe(10_000);
          progress.push(done);
        },
      });
    });
    const ms = Math.round(performance.now() - started);
    console.log(`applied 10,000 rows in ${ms} ms`);
    expect(result).toEqual({ lines: 10_000, sectionsCreated: 20, suppliersCreated: 40, skippedRows: 0 });
    expect(progress.at(-1)).toBe(10_000);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const after = await counts();
    expect(after.lines - before.lines).toBe(10_000);
    expect(after.sections - before.sections).toBe(20);
    expect(after.suppliers - before.suppliers).toBe(40);
    // 20 sections and 40 suppliers audited one by one, the lines in one summary event.
    expect(after.audit - before.audit).toBe(61);

    const lines = await fromOutside(app.database, (db) =>
      db
        .selectFrom('lines')
        .innerJoin('sections', 'sections.id', 'lines.section_id')
        .select([
          'lines.code',
          'lines.position',
          'sections.title',
          'lines.trade_state',
          'lines.trade4',
          'lines.heading',
        ])
        .where('sections.title', 'like', 'Floor %')
        .execute(),
    );
    expect(lines).toHaveLength(10_000);
    expect(new Set(lines.map((l) => l.code)).size).toBe(10_000);
    const floor1 = lines.filter((l) => l.title === 'Floor 1').sort((a, b) => a.position - b.position);
    expect(floor1.map((l) => l.position)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(floor1[0]).toMatchObject({ heading: 'Item 1', trade_state: 'set', trade4: '12500000' });
    expect(floor1[1]).toMatchObject({ trade4: '12505000' });
    expect(floor1[3]).toMatchObject({ trade_state: 'tbc', trade4: null });
  });
});
