/**
 * push_invoice_to_accounting's job: Xero's part (send-invoice.ts), then one commit recording the invoice Xero made;
 * every attempt leaves a sync event, and a push that does not succeed gives back what it claimed (settle).
 */
import type { Db } from '../../../db/store.js';
import { ServiceError } from '../../core/errors.js';
import { displayAmount } from '../../core/money.js';
import type { JobContext } from '../../jobs/job.js';
import type { PushJobInput } from './accept-push.js';
import type { BuiltInvoice } from './invoice.js';
import { ProviderRefused } from './provider.js';
import { type MadeInvoice, sendToXero } from './send-invoice.js';
import { recordSyncEvent } from './sync-events.js';
import { providerError } from './xero-api.js';

/**
 * The push's job: Xero's part, then one commit (the push pushed, the charges given Xero's invoice number, the sync
 * event, the audit event). A failure is recorded as a sync event with its reason before it fails the operation.
 */
export async function runPush(job: JobContext<PushJobInput>) {
  const push = await job.store.readDb
    .selectFrom('accounting_pushes')
    .selectAll()
    .where('id', '=', job.input.pushId)
    .executeTakeFirstOrThrow();
  const invoice = JSON.parse(push.invoice) as BuiltInvoice;
  let made: Awaited<ReturnType<typeof sendToXero>>;
  try {
    made = await sendToXero(job, push, invoice);
  } catch (err) {
    const failure = err instanceof ProviderRefused ? providerError(err) : err;
    const reason = failure instanceof ServiceError ? failure.message : 'The push stopped unexpectedly.';
    await job.store.write((tx) => recordSyncEvent(tx, push, 'failed', { reason }));
    throw failure;
  }
  const number = made.InvoiceNumber ?? made.InvoiceID;
  return job.commit(async (ctx) => {
    await ctx.db
      .updateTable('accounting_pushes')
      .set({
        status: 'pushed',
        provider_invoice_id: made.InvoiceID,
        provider_invoice_number: made.InvoiceNumber ?? null,
        updated_at: ctx.now,
      })
      .where('id', '=', push.id)
      .execute();
    for (const chargeId of JSON.parse(push.charge_ids) as string[]) {
      await ctx.db
        .updateTable('project_charges')
        .set({ invoice_reference: number })
        .where('id', '=', chargeId)
        .execute();
    }
    await recordSyncEvent(ctx.db, push, 'pushed', { invoiceId: made.InvoiceID, invoiceNumber: number });
    ctx.audit({
      targetKind: 'accounting_connection',
      targetId: job.studioId,
      projectId: push.project_id,
      action: 'push_invoice_to_accounting',
      summary: `Pushed draft invoice ${number} to Xero (${displayAmount(BigInt(invoice.totals.gross4))} ${invoice.currency} including tax)`,
    });
    return presentPushed(push.id, made, invoice);
  });
}

const presentPushed = (pushId: string, made: MadeInvoice, invoice: BuiltInvoice) => ({
  pushId,
  providerInvoiceId: made.InvoiceID,
  providerInvoiceNumber: made.InvoiceNumber ?? null,
  status: 'DRAFT',
  currency: invoice.currency,
  lineCount: invoice.lines.length,
});

/** A push that did not succeed gives back what it claimed: the charges can be billed again, the revision part too. */
export async function settlePush(tx: Db, pushId: string) {
  const push = await tx.selectFrom('accounting_pushes').selectAll().where('id', '=', pushId).executeTakeFirst();
  if (!push || push.status === 'pushed') return;
  await tx
    .updateTable('accounting_pushes')
    .set({ status: 'failed', updated_at: new Date().toISOString() })
    .where('id', '=', pushId)
    .execute();
  await tx.deleteFrom('accounting_revision_claims').where('push_id', '=', pushId).execute();
  for (const chargeId of JSON.parse(push.charge_ids) as string[]) {
    await tx
      .updateTable('project_charges')
      .set({ invoiced_at: null, invoice_reference: null })
      .where('id', '=', chargeId)
      .where('invoice_reference', 'is', null)
      .execute();
  }
}
