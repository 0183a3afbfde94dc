import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import { z } from 'zod';
import { refTo } from '../../core/schema-marks.js';
import { Id } from '../../core/values.js';
import { DOCUMENT } from './entity.js';
import { supplierEmailOfRevision } from '../purchase-orders/supplier-copy.js';
import { loadDocument } from './documents.js';
import { assertDeliveryConfigured } from './mail-config.js';
import { DeliveryStatus, DOCUMENT_DELIVERY_RECORD, type DocumentDeliveryRow, type DocumentRow } from './record.js';

type DeliveryRecord = DocumentDeliveryRow & { requester_name: string };

/** A delivery as the API shows it: to whom, what, and how it went. */
export const presentDelivery = (row: DeliveryRecord) =>
  DOCUMENT_DELIVERY_RECORD.present(row, { requestedBy: { memberId: row.requested_by, name: row.requester_name } });
export type PresentedDelivery = ReturnType<typeof presentDelivery>;

function deliveryRecords(db: Kysely<Database>) {
  return db
    .selectFrom('document_deliveries')
    .innerJoin('members', 'members.id', 'document_deliveries.requested_by')
    .innerJoin('users', 'users.id', 'members.user_id')
    .selectAll('document_deliveries')
    .select('users.name as requester_name');
}

export const DELIVERY_SORTS = namedSorts(
  { createdAt: { column: 'document_deliveries.created_at' } },
  { column: 'document_deliveries.id', field: 'id' },
);

export const DELIVERY_LISTING = defineListing({
  filters: {
    ...projectScope,
    documentId: refTo(Id, DOCUMENT).optional().describe("Only this document's deliveries."),
    status: DeliveryStatus.optional().describe('Only deliveries in this state.'),
    recipient: z
      .email('A recipient looks like client@example.com.')
      .max(254)
      .optional()
      .describe('Only to this address.'),
  },
  sorts: DELIVERY_SORTS,
  defaultSort: '-createdAt',
  defaultSays: '-createdAt (newest first)',
});

/** A project's deliveries (or one document's), newest first unless sorted otherwise. */
export async function listDeliveries(ctx: Pick<ActionContext, 'db'>, q: ListingQuery<typeof DELIVERY_LISTING>) {
  let qb = deliveryRecords(ctx.db).where('document_deliveries.project_id', '=', q.projectId);
  if (q.documentId) qb = qb.where('document_deliveries.document_id', '=', q.documentId);
  if (q.status) qb = qb.where('document_deliveries.status', '=', q.status);
  if (q.recipient) qb = qb.where('document_deliveries.recipient', '=', q.recipient.toLowerCase());
  const { rows, nextCursor } = await DELIVERY_LISTING.page(qb, q);
  return { items: rows.map(presentDelivery), nextCursor };
}

export async function loadDelivery(ctx: Pick<ActionContext, 'db'>, projectId: string, deliveryId: string) {
  const row = await deliveryRecords(ctx.db)
    .where('document_deliveries.id', '=', deliveryId)
    .where('document_deliveries.project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) {
    throw new ServiceError(
      'NOT_FOUND',
      `No delivery ${deliveryId} exists in this project; list_document_deliveries lists them.`,
    );
  }
  return row;
}

export async function getDelivery(ctx: Pick<ActionContext, 'db'>, projectId: string, deliveryId: string) {
  return presentDelivery(await loadDelivery(ctx, projectId, deliveryId));
}

export interface DeliveryRequest {
  projectId: string;
  documentId: string;
  /** Needed except for a purchase order, which goes to its supplier's email by default. */
  recipient?: string | undefined;
  subject?: string | undefined;
  message?: string | undefined;
}

/** Who gets a document sent without a recipient: a purchase order's supplier, at the email the studio keeps for it. */
async function defaultRecipient(ctx: ActionContext, document: DocumentRow) {
  const supplier =
    document.kind === 'purchase_order' && document.source_revision_id
      ? await supplierEmailOfRevision(ctx, document.source_revision_id)
      : undefined;
  if (supplier?.email) return supplier.email;
  throw new ServiceError(
    'VALIDATION_FAILED',
    supplier
      ? `Supplier ${supplier.name} has no email; send recipient, or give the supplier one with update_supplier.`
      : 'Send recipient: only a purchase order goes without one (to its supplier).',
    { errors: [{ path: 'recipient', message: 'Who receives it, e.g. orders@supplier.example.' }] },
  );
}

/**
 * Accepts a delivery: checks email is configured (503 DELIVERY_NOT_CONFIGURED otherwise, before anything is kept) and
 * the document can be sent, then records the delivery as queued. Sending happens after the transaction (sendDelivery),
 * never inside it: a mail server's answer is never awaited while the writer is held.
 */
export async function requestDelivery(ctx: ActionContext, req: DeliveryRequest) {
  assertDeliveryConfigured(ctx.config);
  const document = await loadDocument(ctx, req.projectId, req.documentId);
  if (document.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      `Document ${document.id} is archived and is not sent; generate_document makes a new one to send.`,
    );
  }
  const recipient = req.recipient ?? (await defaultRecipient(ctx, document));
  const row = DOCUMENT_DELIVERY_RECORD.newRow(
    {
      studioId: ctx.studioId,
      documentId: document.id,
      recipient: recipient.toLowerCase(),
      subject: req.subject ?? document.title,
      message: req.message ?? `Please find ${document.title} attached.`,
      status: 'queued',
      requester: ctx.caller!.memberId,
      updatedAt: ctx.now,
    },
    { id: newId(), ownerId: req.projectId, now: ctx.now },
  );
  await ctx.db.insertInto('document_deliveries').values(row).execute();
  ctx.audit({
    targetKind: 'document_delivery',
    targetId: row.id,
    projectId: req.projectId,
    summary: `Queued delivery of ${document.title} to ${row.recipient}`,
    changes: { created: { from: null, to: { documentId: document.id, recipient: row.recipient } } },
  });
  return getDelivery(ctx, req.projectId, row.id);
}

/** Marks a queued delivery sent, with the Message-ID the mail server took it under. */
export async function markDeliverySent(ctx: ActionContext, projectId: string, deliveryId: string, messageId: string) {
  const updated = await ctx.db
    .updateTable('document_deliveries')
    .set({ status: 'sent', sent_at: ctx.now, message_id: messageId, updated_at: ctx.now })
    .where('id', '=', deliveryId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) {
    ctx.audit({
      targetKind: 'document_delivery',
      targetId: deliveryId,
      projectId,
      summary: 'Sent a document by email',
      changes: { status: { from: 'queued', to: 'sent' } },
    });
  }
  return getDelivery(ctx, projectId, deliveryId);
}
