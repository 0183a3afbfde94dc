import { ACTIONS_BY_NAME } from '../../actions/index.js';
import { invoke, type Runtime } from '../core/invoke.js';

/**
 * The demo's decide link, made on the first start through the real actions: Harbour House's issued estimate (the one
 * the demo has; when it has none, one is drafted from its first priced lines and issued), shared for its client to
 * accept or decline. Returns the link's path, `/s/<token>`, shown once. Without a mail server the page says the
 * studio records the decision itself; with one, the client verifies by a code sent to client@harbour-house.example.
 */
export async function seedDemoDecisionLink(rt: Runtime, token: string, projectId: string): Promise<string> {
  const call: Call = async (name, input) =>
    (await invoke(rt, ACTIONS_BY_NAME.get(name)!, input, { token, surface: 'trpc' })) as Answer;
  const key = () => ({ commandKey: crypto.randomUUID() });
  const issued = (await call('list_estimates', { projectId, state: 'issued' })).items[0];
  const revisionId: string = issued?.currentRevisionId ?? (await issueOne(call, key, projectId));
  const share = await call('issue_project_share', {
    projectId,
    intent: 'decide',
    estimateRevisionId: revisionId,
    recipientEmail: 'client@harbour-house.example',
    confirm: true,
    ...key(),
  });
  return new URL(share.url).pathname;
}

/** An action's answer, read for the few fields the demo needs. */
interface Answer {
  id: string;
  version: number;
  url: string;
  items: Array<{
    id: string;
    currentRevisionId?: string | null;
    clientPrice?: { state: string; price: unknown };
  }>;
}
type Call = (name: string, input: Record<string, unknown>) => Promise<Answer>;

/** Drafts an estimate of the project's first four priced lines and issues its revision 1; answers the revision's id. */
async function issueOne(call: Call, key: () => { commandKey: string }, projectId: string): Promise<string> {
  const lines = (await call('list_schedule_lines', { projectId, limit: 500 })).items;
  const priced = lines.filter((l) => l.clientPrice?.state === 'set' && l.clientPrice.price).slice(0, 4);
  const draft = await call('create_estimate', {
    projectId,
    title: 'Harbour House: living room',
    depositPercent: { ratio4: '3000' },
    paymentTerms: 'Deposit on acceptance; the balance on delivery.',
    lines: priced.map((l) => ({ lineId: l.id })),
    ...key(),
  });
  const issued = await call('issue_estimate_revision', {
    projectId,
    estimateId: draft.id,
    expectedVersion: draft.version,
    confirm: true,
  });
  return issued.id;
}
