/**
 * The demo studio's estimate, made on first start through the real actions: issued once on Harbour House, its
 * lines still to price shown but left out of the total, its totals the sums of its rounded lines.
 */
import { describe, expect, it } from 'vitest';
import { seedDemoEstimate } from '../../src/seed/demo-estimate.js';
import type { Trpc } from '../helpers/clients.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened));

describe('the demo estimate', () => {
  it('is issued as revision 1 on Harbour House, with exact totals and nothing unpriced counted', async () => {
    const { estimateId, revisionId } = await seedDemoEstimate(app.rt, app.token, app.projectId);
    const list = await owner.estimates.listEstimates.query({ projectId: app.projectId });
    expect(list.items.map((e) => [e.id, e.state, e.revisionCount])).toEqual([[estimateId, 'issued', 1]]);
    const revision = await owner.estimates.getEstimateRevision.query({ projectId: app.projectId, revisionId });
    expect(revision).toMatchObject({ number: 1, state: 'current', decision: null });
    const { content } = revision;
    expect(content.pieces.length).toBeGreaterThan(2);
    const counted = content.pieces.filter((x) => !x.excludedFromTotal && x.net);
    const sum = (k: 'net' | 'tax' | 'gross') => counted.reduce((n, x) => n + BigInt(x[k]!.amount4), 0n).toString();
    expect(content.totals).toEqual({
      net: { amount4: sum('net'), currency: 'GBP' },
      tax: { amount4: sum('tax'), currency: 'GBP' },
      gross: { amount4: sum('gross'), currency: 'GBP' },
    });
    expect(BigInt(content.totals.gross.amount4)).toBeGreaterThan(0n);
    for (const x of content.pieces.filter((y) => y.priceState === 'tbc' || y.priceState === 'poa')) {
      expect(x.excludedFromTotal).toBe(true);
      expect(content.leftOutOfTotal.map((l) => l.pieceId)).toContain(x.pieceId);
    }
  });
});
