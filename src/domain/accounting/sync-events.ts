import type { Db } from '../../../db/store.js';
import type { ActionContext } from '../../core/context.js';
import { newId } from '../../core/ids.js';
import { SYNC_EVENT_RECORD } from './sync-event-record.js';
import { namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery } from '../kit/listing.js';
import { refTo } from '../../core/schema-marks.js';
import { Id } from '../../core/values.js';
import { PROJECT } from '../projects/entity.js';

export const SYNC_EVENT_SORTS = namedSorts({ createdAt: { column: 'created_at' } }, { column: 'id' });

export const SYNC_EVENT_LISTING = defineListing({
  filters: { projectId: refTo(Id, PROJECT, { reads: true }).optional() },
  sorts: SYNC_EVENT_SORTS,
  defaultSort: '-createdAt',
  defaultSays: '-createdAt (newest first)',
});

/** The studio's sync events, newest first unless sorted otherwise; optionally one project's. */
export async function listSyncEvents(ctx: ActionContext, query: ListingQuery<typeof SYNC_EVENT_LISTING>) {
  let qb = ctx.db.selectFrom('accounting_sync_events').selectAll().where('studio_id', '=', ctx.studioId);
  if (query.projectId) qb = qb.where('project_id', '=', query.projectId);
  const { rows, nextCursor } = await SYNC_EVENT_LISTING.page(qb, query);
  return {
    items: rows.map((r) => SYNC_EVENT_RECORD.present(r, {})),
    nextCursor,
  };
}

/** One attempt's outcome, in the transaction given (the job's commit, or one of its own for a failure or a wait). */
export async function recordSyncEvent(
  db: Db,
  push: { id: string; studio_id: string; project_id: string },
  outcome: 'pushed' | 'failed' | 'retried',
  detail: { invoiceId?: string; invoiceNumber?: string; reason?: string },
) {
  await db
    .insertInto('accounting_sync_events')
    .values(
      SYNC_EVENT_RECORD.newRow(
        {
          pushId: push.id,
          projectId: push.project_id,
          outcome,
          providerInvoiceId: detail.invoiceId ?? null,
          providerInvoiceNumber: detail.invoiceNumber ?? null,
          reason: detail.reason ?? null,
        },
        { id: newId(), ownerId: push.studio_id, now: new Date().toISOString() },
      ),
    )
    .execute();
}
