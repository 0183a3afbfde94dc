import type { Trpc } from '../helpers/clients.js';
import { uuid } from '../helpers/ids.js';
import { createLine } from '../helpers/schedule.js';

/**
 * A project priced with awkward figures, for exact totals: per-line tax rounded once, then summed.
 * - `third`: 3 × a hand-set 33.3333, offered at 33.33 (rounded once at drafting): net 99.99, 20 % tax 19.998 → 20.00.
 * - `derived`: 2.5 × trade 12.3450 × 1.35 = 16.66575 a unit, offered at 16.67: net 41.675 → 41.68, 5 % tax 2.084 → 2.08.
 * - `toConfirm`: its price is still to be confirmed (tbc).
 * - `secret`: trade 98,765.4321 at a markup of 271.83 %, figures that must never reach the client.
 */
export async function pricedProject(owner: Trpc, name = 'Estimate check') {
  const p = await owner.projects.createStudioProject.mutate({ name, sections: ['Salon'], commandKey: uuid() });
  const sectionId = p.sections[0]!.id;
  const third = await createLine(owner, {
    projectId: p.id,
    sectionId,
    heading: 'Velvet armchair',
    quantity: { amount4: '30000' },
    tradePrice: { state: 'set', amount4: '200000' },
    clientPrice: { state: 'set', amount4: '333333' },
  });
  const derived = await createLine(owner, {
    projectId: p.id,
    sectionId,
    heading: 'Linen cushion',
    quantity: { amount4: '25000' },
    tradePrice: { state: 'set', amount4: '123450' },
    markup: { ratio4: '3500' },
  });
  const toConfirm = await createLine(owner, { projectId: p.id, sectionId, heading: 'Bespoke rug' });
  const secret = await createLine(owner, {
    projectId: p.id,
    sectionId,
    heading: 'Gilded console',
    quantity: { amount4: '30000' },
    tradePrice: { state: 'set', amount4: '987654321' },
    markup: { ratio4: '27183' },
  });
  return { projectId: p.id, sectionId, third, derived, toConfirm, secret };
}

export type PricedProject = Awaited<ReturnType<typeof pricedProject>>;

/** The three first lines offered at 20 %, 5 % and 20 % tax, with a deposit of 33.33 %. */
export function draftOf(owner: Trpc, p: PricedProject, extra: Record<string, unknown> = {}) {
  return owner.estimates.createEstimate.mutate({
    projectId: p.projectId,
    title: 'Salon furniture',
    depositPercent: { ratio4: '3333' },
    paymentTerms: 'Balance on delivery.',
    lines: [
      { lineId: p.third.id, taxRate: { ratio4: '2000' } },
      { lineId: p.derived.id, taxRate: { ratio4: '500' } },
      { lineId: p.toConfirm.id, taxRate: { ratio4: '2000' } },
    ],
    commandKey: uuid(),
    ...extra,
  });
}

/** An estimate of `p` issued once, its line to confirm left out of the total. */
export async function issuedEstimate(owner: Trpc, p: PricedProject) {
  const draft = await draftOf(owner, p);
  const tbc = draft.lines.find((l) => l.lineId === p.toConfirm.id)!;
  const ready = await owner.estimates.updateEstimateDraft.mutate({
    projectId: p.projectId,
    estimateId: draft.id,
    expectedVersion: draft.version,
    lines: [{ estimateLineId: tbc.id, excludedFromTotal: true }],
  });
  const revision = await owner.estimates.issueEstimateRevision.mutate({
    projectId: p.projectId,
    estimateId: draft.id,
    expectedVersion: ready.version,
    confirm: true,
  });
  return { estimate: ready, revision };
}

/**
 * record_estimate_decision on `revision` (its id and the digest the client saw): accepted in full, by phone, for Clara
 * Penhaligon, confirmed; `extra` changes or adds fields (an outcome by line, a comment, `confirm: undefined`).
 */
export const recordDecision = (
  owner: Trpc,
  projectId: string,
  revision: { id: string; digest: string },
  extra: Record<string, unknown> = {},
) =>
  owner.estimates.recordEstimateDecision.mutate({
    projectId,
    revisionId: revision.id,
    digest: revision.digest,
    outcome: 'accepted',
    deciderName: 'Clara Penhaligon',
    method: 'phone',
    commandKey: uuid(),
    confirm: true,
    ...extra,
  } as never);
