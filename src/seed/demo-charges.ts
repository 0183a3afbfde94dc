import { ACTIONS_BY_NAME } from '../../actions/index.js';
import { invoke, type Runtime } from '../core/invoke.js';

/** The day `daysAgo` days before `now`, YYYY-MM-DD: the demo's charges fall in the weeks before its first start. */
const dayBefore = (now: Date, daysAgo: number) =>
  new Date(now.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/**
 * What Harbour House bills besides goods, made through the real action as an agent would make it: the design fee, a
 * month's site visits by the hour, and fabric samples recharged with a handling markup. UK VAT at 20 % on each.
 * Returns the charges' ids.
 */
export async function seedDemoCharges(rt: Runtime, token: string, projectId: string, now = new Date()) {
  const create = ACTIONS_BY_NAME.get('create_project_charge')!;
  const charges = [
    {
      type: 'design_fee',
      description: 'Concept and scheme design, stages 1 and 2',
      date: dayBefore(now, 42),
      fixedAmount: { amount4: '45000000' },
    },
    {
      type: 'time',
      description: 'Site visits and project meetings',
      date: dayBefore(now, 7),
      hours: { amount4: '75000' },
      hourlyRate: { amount4: '950000' },
    },
    {
      type: 'reimbursable',
      description: 'Fabric and finish samples, couriered to site',
      date: dayBefore(now, 21),
      cost: { amount4: '1864000' },
      handlingMarkup: { ratio4: '1250' },
    },
  ];
  const ids: string[] = [];
  for (const charge of charges) {
    const input = { projectId, ...charge, taxRate: { ratio4: '2000' }, commandKey: crypto.randomUUID() };
    const made = (await invoke(rt, create, input, { token, surface: 'trpc' })) as { id: string };
    ids.push(made.id);
  }
  return ids;
}
