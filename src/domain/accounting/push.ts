import { z } from 'zod';
/**
 * push_invoice_to_accounting. Accepting the push (the action's transaction) checks everything that can be checked here,
 * builds the invoice with exact amounts and claims what it bills, so nothing is billed twice even by two pushes at
 * once: the charges are marked invoiced (they never change again) and the revision part is claimed. The operation's job
 * then talks to Xero outside any transaction: the client as a contact (made once), the invoice as an ACCREC DRAFT with
 * an Idempotency-Key derived from the invoice (a retried job never makes two), Xero's totals compared with ours. Every
 * attempt leaves a sync event; a push that does not succeed gives back what it claimed (settle).
 */
import { createHash } from 'node:crypto';
import type { AccountingRevisionPart } from '../../../db/vocabulary.js';
import type { Db } from '../../../db/store.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { displayAmount } from '../../core/money.js';
import type { JobContext } from '../../jobs/job.js';
import { presentRevision } from '../estimates/revisions.js';
import { readConnectionRow } from './connection.js';
import {
  type BuiltInvoice,
  type InvoiceLine,
  type Mapped,
  chargeLine,
  fromXeroNumber,
  invoiceOf,
  revisionLines,
  xeroNumber,
} from './invoice.js';
import { readMappings } from './accounts.js';
import { type XeroSession, answerOf, openXero, providerError } from './xero-api.js';
import { ProviderRefused } from './provider.js';
import type { Database } from '../../../db/schema.js';

export interface PushRequest {
  projectId: string;
  revision?: { revisionId: string; part: AccountingRevisionPart } | undefined;
  chargeIds?: string[] | undefined;
}

export interface PushJobInput {
  pushId: string;
}

async function mappedKinds(ctx: ActionContext): Promise<Mapped> {
  const { mappings } = await readMappings(ctx);
  return (kind) => {
    const m = mappings.find((x) => x.kind === kind);
    if (!m?.accountCode || !m.taxType) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `No Xero account is mapped for ${kind}; map it with map_accounting_accounts, then push again.`,
      );
    }
    return { accountCode: m.accountCode, taxType: m.taxType };
  };
}

async function revisionPart(ctx: ActionContext, req: PushRequest, mapped: Mapped): Promise<InvoiceLine[]> {
  if (!req.revision) return [];
  const { revisionId, part } = req.revision;
  const shown = await presentRevision(ctx, revisionId);
  if (shown.projectId !== req.projectId)
    throw new ServiceError('NOT_FOUND', `No estimate revision ${revisionId} exists in this project.`);
  const decision = shown.decision;
  if (!decision || decision.outcome === 'declined') {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'Only a revision the client accepted (in whole or in part) can be billed; record the decision first (record_estimate_decision).',
    );
  }
  const claimed = await ctx.db
    .selectFrom('accounting_revision_claims')
    .select('push_id')
    .where('revision_id', '=', revisionId)
    .where('part', '=', part)
    .executeTakeFirst();
  if (claimed) {
    throw new ServiceError(
      'ALREADY_INVOICED',
      `The ${part === 'deposit' ? 'deposit' : 'accepted pieces'} of this revision ${part === 'deposit' ? 'is' : 'are'} already on an invoice pushed to Xero (list_accounting_sync_events shows it).`,
    );
  }
  if (part === 'deposit' && BigInt(decision.deposit.amount4) <= 0n) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'This revision has no deposit to bill; bill its accepted pieces instead.',
    );
  }
  const accepted = new Set(decision.pieces.filter((p) => p.outcome === 'accepted').map((p) => p.pieceId));
  return revisionLines(shown.content, accepted, part, BigInt(decision.deposit.amount4), mapped);
}

async function chargeLines(ctx: ActionContext, req: PushRequest, mapped: Mapped) {
  const lines: InvoiceLine[] = [];
  for (const chargeId of new Set(req.chargeIds ?? [])) {
    const row = await ctx.db.selectFrom('project_charges').selectAll().where('id', '=', chargeId).executeTakeFirst();
    if (!row || row.project_id !== req.projectId)
      throw new ServiceError('NOT_FOUND', `No charge ${chargeId} exists in this project.`);
    if (row.archived_at)
      throw new ServiceError('ARCHIVED', `The charge "${row.description}" is archived; it is not billed.`);
    if (row.invoiced_at)
      throw new ServiceError(
        'CHARGE_INVOICED',
        `The charge "${row.description}" is already invoiced (${row.invoice_reference ?? 'being pushed'}).`,
      );
    lines.push(chargeLine(row, mapped));
  }
  return lines;
}

/** Accepts a push: the invoice built, what it bills claimed, its row kept; answers the job's input. */
export async function acceptPush(ctx: ActionContext, req: PushRequest): Promise<PushJobInput> {
  const connection = await readConnectionRow(ctx.db, ctx.studioId);
  if (connection?.status !== 'connected') throw new ServiceError('ACCOUNTING_NOT_CONNECTED');
  const project = ctx.project!;
  if (!project.client_id && !project.client_name?.trim()) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'The project names no client to invoice; link one (update_project_details with clientId, from list_clients or create_client), then push again.',
    );
  }
  const mapped = await mappedKinds(ctx);
  const lines = [...(await revisionPart(ctx, req, mapped)), ...(await chargeLines(ctx, req, mapped))];
  const pushId = newId();
  const invoice = invoiceOf({
    reference: `${project.name} (${pushId})`.slice(0, 255),
    currency: project.currency,
    date: ctx.now.slice(0, 10),
    lines,
  });
  // The key is the invoice itself (its id and every figure): the same push retried sends the same key.
  const key = createHash('sha256').update(JSON.stringify({ pushId, invoice })).digest('hex');
  await ctx.db
    .insertInto('accounting_pushes')
    .values({
      id: pushId,
      studio_id: ctx.studioId,
      project_id: req.projectId,
      revision_id: req.revision?.revisionId ?? null,
      revision_part: req.revision?.part ?? null,
      charge_ids: JSON.stringify([...new Set(req.chargeIds ?? [])]),
      invoice: JSON.stringify(invoice),
      idempotency_key: key,
      status: 'sending',
      provider_invoice_id: null,
      provider_invoice_number: null,
      requested_by: ctx.caller!.memberId,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .execute();
  if (req.revision) {
    await ctx.db
      .insertInto('accounting_revision_claims')
      .values({ revision_id: req.revision.revisionId, part: req.revision.part, push_id: pushId })
      .execute();
  }
  for (const chargeId of new Set(req.chargeIds ?? [])) {
    await ctx.db
      .updateTable('project_charges')
      .set({ invoiced_at: ctx.now, invoice_reference: null, updated_at: ctx.now })
      .where('id', '=', chargeId)
      .execute();
  }
  ctx.audit({
    targetKind: 'accounting_connection',
    targetId: ctx.studioId,
    projectId: req.projectId,
    summary: `Pushing an invoice to Xero for ${project.name}: ${lines.length} line${lines.length === 1 ? '' : 's'}, ${displayAmount(BigInt(invoice.totals.gross4))} ${invoice.currency} including tax`,
  });
  return { pushId };
}

async function syncEvent(
  db: Db,
  push: { id: string; studio_id: string; project_id: string },
  outcome: 'pushed' | 'failed' | 'retried',
  detail: { invoiceId?: string; invoiceNumber?: string; reason?: string },
) {
  await db
    .insertInto('accounting_sync_events')
    .values({
      id: newId(),
      studio_id: push.studio_id,
      push_id: push.id,
      project_id: push.project_id,
      outcome,
      provider_invoice_id: detail.invoiceId ?? null,
      provider_invoice_number: detail.invoiceNumber ?? null,
      reason: detail.reason ?? null,
      created_at: new Date().toISOString(),
    })
    .execute();
}

/** The fields read from Xero's answers to createContacts and createInvoices. */
const ContactsAnswer = z.looseObject({ Contacts: z.array(z.looseObject({ ContactID: z.string() })).min(1) });
const InvoicesAnswer = z.looseObject({
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
type MadeInvoice = z.output<typeof InvoicesAnswer>['Invoices'][number];

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

type PushRow = Database['accounting_pushes'];

/** Xero's part: the session, the contact, the invoice sent with its key; answers the invoice Xero made. */
async function sendToXero(job: JobContext<PushJobInput>, push: PushRow, invoice: BuiltInvoice) {
  const onRetry = (waitMs: number) =>
    void job.store
      .write((tx) =>
        syncEvent(tx, push, 'retried', {
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
    await job.store.write((tx) => syncEvent(tx, push, 'failed', { reason }));
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
    await syncEvent(ctx.db, push, 'pushed', { invoiceId: made.InvoiceID, invoiceNumber: number });
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
