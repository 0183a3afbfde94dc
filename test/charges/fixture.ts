import type { Trpc } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';

/** What create_project_charge takes besides the project and the command key. */
export type ChargeInput = Omit<Parameters<Trpc['charges']['createProjectCharge']['mutate']>[0], 'commandKey'>;

/** A new charge made over tRPC with a fresh command key. */
export const createCharge = (client: Trpc, input: ChargeInput) =>
  client.charges.createProjectCharge.mutate({ ...input, commandKey: uuid() });

/**
 * Marks a charge invoiced from outside the server, as the accounting push will (no action sets it this session): the
 * row's invoiced columns only, its version untouched.
 */
export function markInvoiced(database: string, chargeId: string, reference = 'INV-0042') {
  return fromOutside(database, (db) =>
    db
      .updateTable('project_charges')
      .set({ invoiced_at: '2026-11-20T09:00:00.000Z', invoice_reference: reference })
      .where('id', '=', chargeId)
      .execute(),
  );
}

/** A fee of `amount4` on `projectId`: the simplest charge there is. */
export const fee = (projectId: string, amount4: string, extra: Partial<ChargeInput> = {}): ChargeInput => ({
  projectId,
  type: 'design_fee',
  description: 'Concept design',
  fixedAmount: { amount4 },
  ...extra,
});
