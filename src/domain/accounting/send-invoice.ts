export interface AccountingContactsTable {
  studio_id: string;
  /** The client's id, or `name:` and the project's plain client label. */
  client_key: string;
  contact_id: string;
  created_at: string;
}
declare module '../../../db/schema.js' {
  interface Database {
    accounting_contacts: AccountingContactsTable;
  }
}
/**
 * Xero's part of a push, outside any transaction: the project's client as a contact (made once), the invoice as an
 * ACCREC DRAFT with its Idempotency-Key (derived from the invoice when it was accepted, so a retried job never makes
 * two), and Xero's totals compared with ours.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import { ServiceError } from '../../core/errors.js';
import { displayAmount } from '../../core/money.js';
import type { JobContext } from '../../jobs/job.js';
import type { PushJobInput } from './accept-push.js';
import { type BuiltInvoice, fromXeroNumber, xeroNumber } from './invoice.js';
import { recordSyncEvent } from './sync-events.js';
import { type XeroSession, answerOf, openXero } from './xero-api.js';

/** The fields read from Xero's answers to createContacts and createInvoices. */
const ContactsAnswer = z.looseObject({ Contacts: z.array(z.looseObject({ ContactID: z.string() })).min(1) });
export const InvoicesAnswer = z.looseObject({
  Invoices: z
    .array(
      z.looseObject({
        InvoiceID: z.string(),
        InvoiceNumber: z.string().optional(),
        SubTotal: z.number(),
        TotalTax: z.number(),
        Total: z.number(),
      }),
    )
    .min(1),
});
export type MadeInvoice = z.output<typeof InvoicesAnswer>['Invoices'][number];

/** The project's client as a Xero contact: made once (by Idempotency-Key) and remembered. */
async function contactFor(job: JobContext<PushJobInput>, xero: XeroSession, projectId: string): Promise<string> {
  const project = await job.store.readDb
    .selectFrom('projects')
    .leftJoin('clients', 'clients.id', 'projects.client_id')
    .select([
      'projects.client_name',
      'projects.name',
      'clients.id as client_id',
      'clients.name as client',
      'clients.email',
    ])
    .where('projects.id', '=', projectId)
    .executeTakeFirstOrThrow();
  // The linked client, else the project's plain client label (accepting the push checked it has one of the two).
  const name = project.client ?? project.client_name ?? project.name;
  const clientKey = project.client_id ?? `name:${name}`;
  const known = await job.store.readDb
    .selectFrom('accounting_contacts')
    .select('contact_id')
    .where('studio_id', '=', job.studioId)
    .where('client_key', '=', clientKey)
    .executeTakeFirst();
  if (known) return known.contact_id;
  const answer = await xero.call({
    method: 'PUT',
    path: '/Contacts',
    headers: { 'idempotency-key': createHash('sha256').update(`${job.studioId}:${clientKey}`).digest('hex') },
    body: { Contacts: [{ Name: name, ...(project.email ? { EmailAddress: project.email } : {}) }] },
  });
  const contactId = answerOf(ContactsAnswer, answer).Contacts[0]!.ContactID;
  await job.store.write(async (tx) => {
    await tx
      .insertInto('accounting_contacts')
      .values({
        studio_id: job.studioId,
        client_key: clientKey,
        contact_id: contactId,
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  });
  return contactId;
}

const xeroInvoice = (invoice: BuiltInvoice, contactId: string) => ({
  Invoices: [
    {
      Type: 'ACCREC',
      Status: 'DRAFT',
      Contact: { ContactID: contactId },
      Date: invoice.date,
      DueDate: invoice.date,
      Reference: invoice.reference,
      CurrencyCode: invoice.currency,
      LineAmountTypes: 'Exclusive',
      LineItems: invoice.lines.map((l) => ({
        Description: l.description,
        Quantity: xeroNumber(l.quantity4),
        UnitAmount: xeroNumber(l.unitAmount4),
        LineAmount: xeroNumber(l.net4),
        TaxAmount: xeroNumber(l.tax4),
        AccountCode: l.accountCode,
        TaxType: l.taxType,
      })),
    },
  ],
});

/** Both figures of a total that differs, or undefined when Xero's totals are ours. */
function totalsDiffer(invoice: BuiltInvoice, answered: MadeInvoice): string | undefined {
  const pairs = [
    ['subtotal', invoice.totals.net4, answered.SubTotal],
    ['tax', invoice.totals.tax4, answered.TotalTax],
    ['total', invoice.totals.gross4, answered.Total],
  ] as const;
  const off = pairs.filter(([, ours, theirs]) => fromXeroNumber(theirs) !== BigInt(ours));
  if (!off.length) return undefined;
  return off
    .map(
      ([what, ours, theirs]) =>
        `${what}: ours ${displayAmount(BigInt(ours))}, Xero's ${displayAmount(fromXeroNumber(theirs))}`,
    )
    .join('; ');
}

export type PushRow = Database['accounting_pushes'];

/** Xero's part: the session, the contact, the invoice sent with its key; answers the invoice Xero made. */
export async function sendToXero(job: JobContext<PushJobInput>, push: PushRow, invoice: BuiltInvoice) {
  const onRetry = (waitMs: number) =>
    void job.store
      .write((tx) =>
        recordSyncEvent(tx, push, 'retried', {
          reason: `Xero asked to wait ${Math.ceil(waitMs / 1000)} s (429); waited and tried again.`,
        }),
      )
      .catch(() => undefined);
  const xero = await openXero(job.config, job.studioId, job.store, onRetry);
  await job.progress(1, 3);
  const contactId = await contactFor(job, xero, push.project_id);
  await job.progress(2, 3);
  const answer = await xero.call({
    method: 'PUT',
    path: '/Invoices?unitdp=4',
    headers: { 'idempotency-key': push.idempotency_key },
    body: xeroInvoice(invoice, contactId),
  });
  const made = answerOf(InvoicesAnswer, answer).Invoices[0]!;
  const differ = totalsDiffer(invoice, made);
  if (differ) {
    throw new ServiceError(
      'ACCOUNTING_PROVIDER_FAILED',
      `Xero's totals for draft invoice ${made.InvoiceNumber ?? made.InvoiceID} differ from ours (${differ}); delete that draft in Xero and check the tax rates mapped (map_accounting_accounts).`,
    );
  }
  return made;
}
