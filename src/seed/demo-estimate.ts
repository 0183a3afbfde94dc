import { ACTIONS_BY_NAME } from '../../actions/index.js';
import { invoke, type Runtime } from '../core/invoke.js';

/** How many days the demo offer stays open from the first start. */
const OPEN_FOR_DAYS = 30;

/**
 * One issued estimate on Harbour House, made on the demo's first start through the real actions: the lines of its
 * first room, those still to price shown but left out of the total, a 30 % deposit, issued as revision 1. Answers
 * its ids, for the link that lets the client decide.
 */
export async function seedDemoEstimate(rt: Runtime, token: string, projectId: string) {
  interface Answer {
    id: string;
    version: number;
    items: Array<{ id: string; sectionId: string }>;
    lines: Array<{ id: string; unitPrice: { state: string } }>;
  }
  const call = async (name: string, input: Record<string, unknown>) =>
    (await invoke(rt, ACTIONS_BY_NAME.get(name)!, input, { token, surface: 'trpc' })) as Answer;
  const lines = (await call('list_schedule_lines', { projectId })).items;
  const room = lines.filter((l) => l.sectionId === lines[0]!.sectionId).slice(0, 8);
  const validUntil = new Date(Date.now() + OPEN_FOR_DAYS * 86_400_000).toISOString().slice(0, 10);
  const draft = await call('create_estimate', {
    projectId,
    title: 'Harbour House: the first room',
    introduction: 'Our proposal for the first room, as discussed on site. Prices include VAT where shown.',
    validUntil,
    depositPercent: { ratio4: '3000' },
    paymentTerms: 'A 30 % deposit on acceptance; the balance on delivery.',
    lines: room.map((l) => ({ lineId: l.id, taxRate: { ratio4: '2000' } })),
    commandKey: crypto.randomUUID(),
  });
  const toPrice = draft.lines.filter((l) => l.unitPrice.state === 'tbc' || l.unitPrice.state === 'poa');
  const ready = toPrice.length
    ? await call('update_estimate_draft', {
        projectId,
        estimateId: draft.id,
        expectedVersion: draft.version,
        lines: toPrice.map((l) => ({ estimateLineId: l.id, excludedFromTotal: true })),
      })
    : draft;
  // The demo is made by whoever started the server for the first time: the issue is theirs to agree to.
  const revision = await call('issue_estimate_revision', {
    projectId,
    estimateId: draft.id,
    expectedVersion: ready.version,
    confirm: true,
  });
  return { estimateId: draft.id, revisionId: revision.id };
}
