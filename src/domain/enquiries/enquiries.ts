import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { inProject } from '../kit/in-project.js';
import { namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import { refTo } from '../../core/schema-marks.js';
import { Id } from '../../core/values.js';
import { SUPPLIER } from '../suppliers/entity.js';
import { EnquiryState as StateField } from './record.js';
import type { EnquiryState } from '../../../db/vocabulary.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { assertActiveSupplier } from '../suppliers/active-supplier.js';
import { itemsFrom, type ItemRequest } from './items.js';
import {
  ENQUIRY_RECORD,
  ENQUIRY_RESPONSE_RECORD,
  type EnquiryRecipientRow,
  type EnquiryResponseRow,
  type EnquiryRow,
} from './record.js';
import { type EnquiryAct, nextState, refusalFor } from './states.js';

type Reader = Pick<ActionContext, 'db'>;

/** The suppliers of some enquiries, with their names, addresses, email state and how many responses each gave. */
async function suppliersOf(db: Kysely<Database>, enquiryIds: readonly string[]) {
  if (!enquiryIds.length) return new Map<string, Array<ReturnType<typeof presentRecipient>>>();
  const rows = await db
    .selectFrom('enquiry_recipients as r')
    .innerJoin('suppliers as s', 's.id', 'r.supplier_id')
    .selectAll('r')
    .select(['s.name as supplier_name', 's.email as supplier_email'])
    .select((eb) =>
      eb
        .selectFrom('enquiry_responses as x')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('x.enquiry_id', '=', 'r.enquiry_id')
        .whereRef('x.supplier_id', '=', 'r.supplier_id')
        .as('response_count'),
    )
    .where('r.enquiry_id', 'in', [...enquiryIds])
    .orderBy('r.enquiry_id')
    .orderBy('r.position')
    .execute();
  const by = new Map<string, Array<ReturnType<typeof presentRecipient>>>();
  for (const r of rows) {
    const list = by.get(r.enquiry_id) ?? [];
    list.push(presentRecipient(r));
    by.set(r.enquiry_id, list);
  }
  return by;
}

/** An enquiry's email to one supplier, read with the supplier's name and address now and its count of responses. */
type RecipientRecord = EnquiryRecipientRow & {
  supplier_name: string;
  supplier_email: string | null;
  response_count: number | string | bigint | null;
};

/** A supplier of an enquiry as the API shows it (EnquirySupplier): who, where the email went, how it went. */
function presentRecipient(r: RecipientRecord) {
  return {
    supplierId: r.supplier_id,
    name: r.supplier_name,
    // Before sending, the supplier's address as it is now; once queued, the one the email went to.
    email: r.mail_status === 'unsent' ? r.supplier_email : r.email,
    mail: { status: r.mail_status, error: r.mail_error, messageId: r.message_id, sentAt: r.sent_at },
    responseCount: Number(r.response_count ?? 0),
  };
}

/** Enquiries as the API shows them, each with its suppliers and its count of responses. */
async function presentEnquiries(db: Kysely<Database>, rows: readonly EnquiryRow[]) {
  const suppliers = await suppliersOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const list = suppliers.get(row.id) ?? [];
    return ENQUIRY_RECORD.present(row, {
      suppliers: list,
      responseCount: list.reduce((n, s) => n + s.responseCount, 0),
    });
  });
}

export const presentEnquiry = async (db: Kysely<Database>, row: EnquiryRow) => (await presentEnquiries(db, [row]))[0]!;

export const ENQUIRY_SORTS = namedSorts(
  { createdAt: { column: 'enquiries.created_at' }, replyBy: { column: 'enquiries.reply_by' } },
  { column: 'enquiries.id' },
);

export const ENQUIRY_LISTING = defineListing({
  filters: {
    ...projectScope,
    state: StateField.optional().describe('Only enquiries in this state.'),
    supplierId: refTo(Id, SUPPLIER).optional().describe('Only enquiries that went (or will go) to this supplier.'),
  },
  sorts: ENQUIRY_SORTS,
  defaultSort: '-createdAt',
  defaultSays: '-createdAt (newest first)',
});

/** A project's enquiries, newest first unless sorted otherwise, narrowed to a state or a supplier asked. */
export async function listEnquiries(ctx: Reader, q: ListingQuery<typeof ENQUIRY_LISTING>) {
  let qb = ctx.db.selectFrom('enquiries').selectAll('enquiries').where('enquiries.project_id', '=', q.projectId);
  if (q.state) qb = qb.where('enquiries.state', '=', q.state);
  if (q.supplierId) {
    const supplierId = q.supplierId;
    qb = qb.where('enquiries.id', 'in', (eb) =>
      eb.selectFrom('enquiry_recipients').select('enquiry_id').where('supplier_id', '=', supplierId),
    );
  }
  const { rows, nextCursor } = await ENQUIRY_LISTING.page(qb, q);
  return { items: await presentEnquiries(ctx.db, rows), nextCursor };
}

export async function loadEnquiry(ctx: Reader, projectId: string, enquiryId: string): Promise<EnquiryRow> {
  const row = await inProject(ctx.db, 'enquiries', projectId, enquiryId);
  if (!row)
    throw new ServiceError('NOT_FOUND', `No enquiry ${enquiryId} exists in this project; list_enquiries lists them.`);
  return row;
}

/** A response as the API shows it, with its supplier's name. */
export async function presentResponses(db: Kysely<Database>, rows: readonly EnquiryResponseRow[]) {
  const ids = [...new Set(rows.map((r) => r.supplier_id))];
  const names = new Map(
    ids.length
      ? (await db.selectFrom('suppliers').select(['id', 'name']).where('id', 'in', ids).execute()).map((s) => [
          s.id,
          s.name,
        ])
      : [],
  );
  return rows.map((r) => ENQUIRY_RESPONSE_RECORD.present(r, { supplierName: names.get(r.supplier_id) ?? '' }));
}

/** One enquiry with every response recorded against it, oldest first. */
export async function getEnquiry(ctx: Reader, projectId: string, enquiryId: string) {
  const row = await loadEnquiry(ctx, projectId, enquiryId);
  const responses = await ctx.db
    .selectFrom('enquiry_responses')
    .selectAll()
    .where('enquiry_id', '=', enquiryId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return { ...(await presentEnquiry(ctx.db, row)), responses: await presentResponses(ctx.db, responses) };
}

export interface CreateEnquiryRequest {
  projectId: string;
  title: string;
  message?: string | undefined;
  replyBy: string;
  supplierIds: string[];
  items: ItemRequest[];
}

/** Writes a draft enquiry: its items as they read now, its suppliers in the order given (each once). */
export async function createEnquiry(ctx: ActionContext, req: CreateEnquiryRequest) {
  const supplierIds = [...new Set(req.supplierIds)];
  for (const id of supplierIds) await assertActiveSupplier(ctx, id);
  const items = await itemsFrom(ctx, req.projectId, req.items);
  const row = ENQUIRY_RECORD.newRow(
    { title: req.title, message: req.message, replyBy: req.replyBy, items, createdBy: ctx.caller!.memberId },
    { id: newId(), ownerId: req.projectId, now: ctx.now },
  );
  await ctx.db.insertInto('enquiries').values(row).execute();
  await ctx.db
    .insertInto('enquiry_recipients')
    .values(
      supplierIds.map((supplierId, i) => ({
        enquiry_id: row.id,
        supplier_id: supplierId,
        project_id: req.projectId,
        position: i + 1,
        email: null,
        mail_status: 'unsent' as const,
        mail_error: null,
        message_id: null,
        sent_at: null,
      })),
    )
    .execute();
  ctx.audit({
    targetKind: 'enquiry',
    targetId: row.id,
    projectId: req.projectId,
    summary: `Drafted enquiry ${row.title} (${items.length} item${items.length === 1 ? '' : 's'}, ${supplierIds.length} supplier${supplierIds.length === 1 ? '' : 's'})`,
    changes: { created: { from: null, to: row.title } },
  });
  return presentEnquiry(ctx.db, row);
}

/** The state an act leads to, or ENQUIRY_WRONG_STATE saying what the enquiry's state allows instead. */
export function stateAfter(row: EnquiryRow, act: EnquiryAct): EnquiryState {
  const next = nextState(row.state, act);
  if (!next) throw new ServiceError('ENQUIRY_WRONG_STATE', refusalFor(row.state, act.act));
  return next;
}

/** Writes an enquiry's columns through the one version-checked update, auditing what changed. */
export function writeEnquiry(ctx: ActionContext, before: EnquiryRow, cols: Partial<EnquiryRow>, verb: string) {
  return versionedUpdate(ctx, 'enquiries', before, cols, {
    present: (row) => presentEnquiry(ctx.db, row),
    audit: (after) => ({
      targetKind: 'enquiry',
      projectId: before.project_id,
      summary: `${verb} enquiry ${after.title}`,
    }),
  });
}

/** Ends an enquiry from any state but closed: nothing more is sent, recorded or applied. */
export async function closeEnquiry(ctx: ActionContext, projectId: string, enquiryId: string, reason?: string) {
  const before = await loadEnquiry(ctx, projectId, enquiryId);
  const state = stateAfter(before, { act: 'close' });
  return writeEnquiry(ctx, before, { state, closed_at: ctx.now, close_reason: reason ?? null }, 'Closed');
}
