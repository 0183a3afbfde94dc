export interface AccountingPushesTable {
  id: string;
  studio_id: string;
  project_id: string;
  revision_id: string | null;
  revision_part: AccountingRevisionPart | null;
  /** JSON: the ids of the charges billed. */
  charge_ids: string;
  /** JSON: the invoice as built (built.ts), what is sent. */
  invoice: string;
  idempotency_key: string;
  status: AccountingPushStatus;
  provider_invoice_id: string | null;
  provider_invoice_number: string | null;
  requested_by: string;
  created_at: string;
  updated_at: string;
}

/** What a push bills of a revision (its deposit or its accepted pieces): one push each, so nothing is billed twice. */
export interface AccountingRevisionClaimsTable {
  revision_id: string;
  part: AccountingRevisionPart;
  push_id: string;
}
declare module '../../../db/schema.js' {
  interface Database {
    accounting_pushes: AccountingPushesTable;
    accounting_revision_claims: AccountingRevisionClaimsTable;
  }
}
/**
 * Accepting push_invoice_to_accounting (the action's transaction): everything that can be checked here is, the
 * invoice is built with exact amounts (invoice.ts) and what it bills is claimed, so nothing is billed twice even by two
 * pushes at once: the charges are marked invoiced (they never change again) and the revision part is claimed. The
 * operation's job (push.ts) then talks to Xero; a push that does not succeed gives back what it claimed.
 */
import { createHash } from 'node:crypto';
import type { AccountingPushStatus, AccountingRevisionPart } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { displayAmount } from '../../core/money.js';
import { presentRevision } from '../estimates/revisions.js';
import { readMappings } from './accounts.js';
import { readConnectionRow } from './connection.js';
import { type InvoiceLine, type Mapped, chargeLine, invoiceOf, revisionLines } from './invoice.js';

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
