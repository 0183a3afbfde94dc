import type { ActionContext } from '../../core/context.js';
import { divRound, ONE, parseAmount4 } from '../../core/money.js';
import { derivePricing } from '../schedule/pricing.js';
import { presentationFor } from '../schedule/lines.js';
import type { LineRow } from '../schedule/record.js';
import type { Currency, ValueState } from '../../../db/vocabulary.js';
import { chargeTotals } from '../charges/totals.js';

type StateCounts = Record<ValueState, number>;

/**
 * Running sums kept exact at scale 12 (quantity4 × rate4 × (1 + markup)4): nothing is rounded until a total is shown,
 * and then once. So a project total is not the sum of its rounded line or section totals, and need not reconcile with
 * them; the specification accepts that.
 */
interface Sums {
  client12: bigint;
  delivery4: bigint;
  trade12: bigint;
  margin12: bigint;
  lineCount: number;
  client: StateCounts;
  trade: StateCounts;
}

const SCALE8 = ONE * ONE;
const zeroCounts = (): StateCounts => ({ set: 0, tbc: 0, poa: 0, included: 0, by_others: 0 });
const emptySums = (): Sums => ({
  client12: 0n,
  delivery4: 0n,
  trade12: 0n,
  margin12: 0n,
  lineCount: 0,
  client: zeroCounts(),
  trade: zeroCounts(),
});

/** How many lines left out of the totals a response lists by name; the count covers them all. */
export const LEFT_OUT_LISTED = 100;

const UNKNOWN: ReadonlySet<ValueState> = new Set(['tbc', 'poa']);

/**
 * Adds one line's exact client and trade totals (and margin, when both are known) to every sum given; answers whether
 * the line was left out of a total because a price is still to be confirmed or on application.
 */
function addLine(row: LineRow, defaultMarkup4: string, into: Sums[]) {
  const d = derivePricing(row, defaultMarkup4);
  const delivery4 = row.delivery_state === 'set' && row.delivery4 !== null ? parseAmount4(row.delivery4) : 0n;
  const quantity4 = parseAmount4(row.quantity4);
  const trade4 = row.trade_state === 'set' && row.trade4 !== null ? parseAmount4(row.trade4) : null;
  // Exact client total at scale 12: a hand-set rate is q × c; a derived one is q × trade × (1 + markup), unrounded.
  let client12: bigint | null = null;
  if (d.client.source === 'manual') client12 = d.client.price4 === null ? null : quantity4 * d.client.price4 * ONE;
  else if (trade4 !== null) client12 = quantity4 * trade4 * (ONE + d.markup4);
  const trade12 = trade4 === null ? null : quantity4 * trade4 * ONE;
  for (const s of into) {
    s.lineCount += 1;
    s.client[d.client.state] += 1;
    s.trade[row.trade_state] += 1;
    if (client12 !== null) s.client12 += client12;
    s.delivery4 += delivery4;
    if (trade12 !== null) s.trade12 += trade12;
    if (client12 !== null && trade12 !== null) s.margin12 += client12 - trade12;
  }
  return UNKNOWN.has(d.client.state) || UNKNOWN.has(row.trade_state)
    ? { clientPriceState: d.client.state, tradePriceState: row.trade_state }
    : null;
}

function present(s: Sums, currency: Currency) {
  const money = (n12: bigint) => ({ amount4: divRound(n12, SCALE8).toString(), currency });
  return {
    clientTotal: money(s.client12),
    deliveryTotal: { amount4: s.delivery4.toString(), currency },
    tradeTotal: money(s.trade12),
    marginTotal: money(s.margin12),
    lineCount: s.lineCount,
    linesByState: { clientPrice: s.client, tradePrice: s.trade },
  };
}

/**
 * Per-section and project totals over the active lines of the active sections. Client total covers lines whose client
 * price is set (by hand or derived from a set trade price); trade total covers lines whose trade price is set; margin
 * covers only lines where both are known, so it need not equal client total minus trade total.
 */
export async function getProjectTotals(ctx: ActionContext, projectId: string) {
  const p = await presentationFor(ctx, projectId);
  const sections = await ctx.db
    .selectFrom('sections')
    .select(['id', 'title', 'position'])
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const lines = await ctx.db
    .selectFrom('lines')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .execute();
  const project = emptySums();
  const bySection = new Map(sections.map((s) => [s.id, emptySums()]));
  const leftOut = [];
  // Schedule order, so the list reads like the schedule: by section position, then the line's position.
  lines.sort((a, b) => a.position - b.position);
  for (const line of lines) {
    const section = bySection.get(line.section_id);
    if (!section) continue;
    const unknown = addLine(line, p.defaultMarkup4, [section, project]);
    if (unknown) leftOut.push({ line, ...unknown });
  }
  const sectionOrder = new Map(sections.map((s, i) => [s.id, i]));
  leftOut.sort((a, b) => sectionOrder.get(a.line.section_id)! - sectionOrder.get(b.line.section_id)!);
  return {
    projectId,
    currency: p.currency,
    ...present(project, p.currency),
    linesLeftOutCount: leftOut.length,
    linesLeftOut: leftOut.slice(0, LEFT_OUT_LISTED).map(({ line, clientPriceState, tradePriceState }) => ({
      lineId: line.id,
      sectionId: line.section_id,
      code: line.code,
      heading: line.heading,
      clientPriceState,
      tradePriceState,
    })),
    sections: sections.map((s) => ({
      sectionId: s.id,
      title: s.title,
      position: s.position,
      ...present(bySection.get(s.id)!, p.currency),
    })),
    charges: await chargeTotals(ctx.db, projectId, p.currency),
  };
}
