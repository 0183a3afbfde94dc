import { namedSorts, sortNames } from '../domain/kit/keyset-page.js';
import { defineListing, type ListingQuery, projectScope } from '../domain/kit/listing.js';
import type { ActionContext } from '../core/context.js';
import { canonicalJson } from '../core/canonical-json.js';
import { ServiceError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { StudioPermission } from '../core/permissions.js';
import type { Db } from '../../db/store.js';
import { operationNotVisible, visibleOperations } from './entity.js';
import { jobOfKind } from './job.js';
import { OPERATION_RECORD, type OperationRow, OperationStatus as StatusField } from './record.js';
import { wakeWorkers } from './wake.js';

/** How an operation reads through the API (declared in record.ts): where it stands, how far, then its result or its problem. */
export const presentOperation = (row: OperationRow) => OPERATION_RECORD.present(row, {});
export type PresentedOperation = ReturnType<typeof presentOperation>;

/**
 * Records an operation in the caller's write transaction (so an act is accepted exactly when its operation exists)
 * and wakes this process's workers. Returns it queued; the action answers 202 with where to poll. Its kind must be a
 * defined job's (defineJob).
 */
export async function startOperation(
  ctx: ActionContext,
  op: { kind: string; action: string; scope: StudioPermission; input: unknown; total?: number; projectId?: string },
): Promise<PresentedOperation> {
  if (!ctx.caller) throw new Error('An operation is started by a member.');
  // An operation no worker could run would be failed by the first that claimed it, in whichever process.
  if (!jobOfKind(op.kind)) {
    throw new Error(
      `No job is defined for operation kind ${op.kind}: define it with defineJob in a module the domain's actions import.`,
    );
  }
  const row = OPERATION_RECORD.newRow(
    {
      kind: op.kind,
      action: op.action,
      projectId: op.projectId ?? ctx.project?.id ?? null,
      scope: op.scope,
      progress: { completed: 0, total: op.total ?? 0 },
      input: canonicalJson(op.input),
      requestedBy: ctx.caller.memberId,
      requestedVia: ctx.caller.via,
      updatedAt: ctx.now,
    },
    { id: newId(), ownerId: ctx.studioId, now: ctx.now },
  );
  await ctx.db.insertInto('operations').values(row).execute();
  ctx.afterCommit(wakeWorkers);
  return presentOperation(row);
}

/** Runs the job's `settle` for an operation that ended without succeeding, in the transaction recording the end. */
export async function settleOperation(
  tx: Db,
  row: Pick<OperationRow, 'id' | 'kind' | 'studio_id' | 'input'>,
  status: 'failed' | 'canceled',
  now: string,
) {
  await jobOfKind(row.kind)?.settle?.(tx, {
    studioId: row.studio_id,
    operationId: row.id,
    input: JSON.parse(row.input),
    status,
    now,
  });
}

/**
 * An operation of the caller's studio. Whether the caller may see it is OPERATION's access rule (entity.ts), which
 * `invoke` has run for the operationId before any handler calls this.
 */
export async function loadOperation(ctx: Pick<ActionContext, 'db' | 'studioId'>, id: string) {
  const row = await ctx.db
    .selectFrom('operations')
    .selectAll()
    .where('id', '=', id)
    .where('studio_id', '=', ctx.studioId)
    .executeTakeFirst();
  if (!row) throw operationNotVisible(id);
  return row;
}

export async function getOperation(ctx: Pick<ActionContext, 'db' | 'studioId'>, id: string) {
  return presentOperation(await loadOperation(ctx, id));
}

/**
 * Cancels: a queued operation at once; a running one when its job next reports progress (it then commits nothing).
 * A finished one cannot be canceled (ALREADY_FINISHED would be a new code: it answers VALIDATION_FAILED with its state).
 */
export async function cancelOperation(ctx: ActionContext, id: string) {
  const row = await loadOperation(ctx, id);
  if (row.status === 'queued') {
    await ctx.db
      .updateTable('operations')
      .set({ status: 'canceled', finished_at: ctx.now, updated_at: ctx.now })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .execute();
    await settleOperation(ctx.db, row, 'canceled', ctx.now);
  } else if (row.status === 'running') {
    if (row.cancel_requested) ctx.unchanged();
    else
      await ctx.db
        .updateTable('operations')
        .set({ cancel_requested: 1, updated_at: ctx.now })
        .where('id', '=', id)
        .execute();
  } else {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `Operation ${id} has already ${row.status === 'canceled' ? 'been canceled' : row.status}; there is nothing left to cancel.`,
      { errors: [{ path: 'operationId', message: `Already ${row.status}.` }] },
    );
  }
  ctx.audit({
    targetKind: 'studio',
    targetId: ctx.studioId,
    projectId: row.project_id,
    summary: `Canceled operation ${row.kind} (${id})`,
  });
  return presentOperation(
    await ctx.db.selectFrom('operations').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );
}

export const OPERATION_SORTS = namedSorts(
  { createdAt: { column: 'operations.created_at' } },
  { column: 'operations.id' },
);
export const OPERATION_SORT_NAMES = sortNames(OPERATION_SORTS);

export const OPERATION_LISTING = defineListing({
  filters: { status: StatusField.optional(), projectId: projectScope.projectId.optional() },
  sorts: OPERATION_SORTS,
  defaultSort: '-createdAt',
  defaultSays: '-createdAt (newest first)',
  // An operation carries its progress and its result or problem, larger than most records: a smaller page.
  pageSize: 100,
});

/**
 * The studio's operations the caller may see (those of acts their role may do, on projects they reach, by OPERATION's
 * rule), newest first by default.
 */
export async function listOperations(
  ctx: Pick<ActionContext, 'db' | 'caller' | 'studioId'>,
  query: ListingQuery<typeof OPERATION_LISTING>,
) {
  let qb = visibleOperations(
    ctx.db,
    ctx.db.selectFrom('operations').selectAll().where('studio_id', '=', ctx.studioId),
    ctx.caller,
  );
  if (query.status) qb = qb.where('status', '=', query.status);
  if (query.projectId) qb = qb.where('project_id', '=', query.projectId);
  const { rows, nextCursor } = await OPERATION_LISTING.page(qb, query);
  return { items: rows.map(presentOperation), nextCursor };
}
