import type { ImportRow } from './record.js';
import type { ActionContext } from '../../core/context.js';
import { type ApplyProgress, applyPlan } from './apply.js';
import type { ImportMapping } from './fields.js';
import { dataRowCount, MAX_IMPORT_ROWS, tooManyRows } from './limits.js';
import { readLookups } from './lookups.js';
import { planImport } from './plan.js';
import { defaultSection } from './preview.js';
import { assertStatus, getImport, type ImportResult, loadImport } from './records.js';
import { sheetRows } from './sheet-rows.js';
import type { Db } from '../../../db/store.js';
import { ServiceError } from '../../core/errors.js';
import { startOperation } from '../../jobs/operations.js';

/** The operation kind an import's commit runs as (jobs.ts defines its job). */
export const IMPORT_COMMIT_KIND = 'import_commit';

/**
 * Applies an import to its project's schedule, all of it or nothing, in one write transaction (the commit job's, see
 * jobs.ts): its sheet read again, planned with `mapping` against the sections and suppliers as they are now, written
 * (apply.ts), and the import marked committed with what it made; its kept cells are cleared (the file stays in the blob
 * store). Any failure, a cell error included (unless `skipRowsWithErrors`), throws and leaves nothing.
 */
export async function applyImport(
  ctx: ActionContext,
  record: ImportRow,
  mapping: ImportMapping,
  opts: { skipRowsWithErrors?: boolean | undefined; onProgress?: ApplyProgress | undefined } = {},
): Promise<ImportResult> {
  const sheet = await sheetRows(ctx.db, record, record.sheet);
  const rows = dataRowCount(sheet.rows, mapping.headerRow);
  if (rows > MAX_IMPORT_ROWS) throw tooManyRows(`The sheet "${sheet.name}"`, rows);
  const lookups = await readLookups(ctx.db, ctx.studioId, record.project_id);
  const plan = planImport(
    sheet.rows,
    mapping,
    lookups,
    await defaultSection(ctx, record.project_id, record.default_section_id),
  );
  const { result } = await applyPlan(ctx, record.project_id, plan, {
    skipRowsWithErrors: opts.skipRowsWithErrors,
    onProgress: opts.onProgress,
    audit: {
      targetKind: 'import',
      targetId: record.id,
      summary: (r) =>
        `Imported ${r.lines} line${r.lines === 1 ? '' : 's'} from ${record.filename}${r.skippedRows ? ` (${r.skippedRows} rows with errors left out)` : ''}`,
    },
  });
  await ctx.db
    .updateTable('imports')
    .set({
      status: 'committed',
      result: JSON.stringify(result),
      committed_by: ctx.caller?.memberId ?? null,
      committed_at: ctx.now,
      updated_at: ctx.now,
      version: record.version + 1,
    })
    .where('id', '=', record.id)
    .execute();
  await ctx.db.updateTable('import_sheets').set({ cells: null }).where('import_id', '=', record.id).execute();
  return result;
}

export interface CommitInput {
  projectId: string;
  importId: string;
  skipRowsWithErrors?: boolean | undefined;
}

/** What the commit job is given: the import and how to treat rows with errors. */
export interface CommitJob {
  projectId: string;
  importId: string;
  skipRowsWithErrors: boolean;
}

/**
 * Accepts a previewed import's commit (`invoke` checked the version the caller previewed): the import becomes
 * `committing`, naming the operation that will apply it, recorded in this same transaction; the worker then applies
 * it (jobs.ts). A preview that found unreadable cells is refused here, at once, unless rows with errors are to be left
 * out, rather than accepted and failed later. A failed commit (an interrupted worker) can be committed again.
 */
export async function startImportCommit(ctx: ActionContext, input: CommitInput, action: string) {
  const record = await loadImport(ctx, input.projectId, input.importId);
  assertStatus(record, ['previewed', 'failed'], 'committed');
  const errors = record.error_count ?? 0;
  if (errors > 0 && !input.skipRowsWithErrors) {
    throw new ServiceError(
      'IMPORT_HAS_ERRORS',
      `The preview found ${errors} cell${errors === 1 ? '' : 's'} that cannot be read (preview the import again to see each by row and column). Fix the file and upload it again, change the mapping, or commit with skipRowsWithErrors: true to leave those rows out. Nothing was imported.`,
      { extra: { errorCount: errors } },
    );
  }
  const job: CommitJob = {
    projectId: input.projectId,
    importId: record.id,
    skipRowsWithErrors: input.skipRowsWithErrors ?? false,
  };
  const operation = await startOperation(ctx, {
    kind: IMPORT_COMMIT_KIND,
    action,
    scope: 'projects:write',
    input: job,
    total: record.row_count ?? 0,
  });
  await ctx.db
    .updateTable('imports')
    .set({ status: 'committing', operation_id: operation.id, updated_at: ctx.now, version: record.version + 1 })
    .where('id', '=', record.id)
    .execute();
  ctx.audit({
    targetKind: 'import',
    targetId: record.id,
    projectId: input.projectId,
    summary: `Started committing the import of ${record.filename} (operation ${operation.id})`,
    changes: { status: { from: record.status, to: 'committing' } },
  });
  return operation;
}

/** The commit job's body, in its one commit: the import applied, if it is still this operation's to apply. */
export async function commitAccepted(ctx: ActionContext, job: CommitJob, operationId: string) {
  if (ctx.project?.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      'The project was archived before the import was applied; restore it and commit the import again.',
    );
  }
  const record = await loadImport(ctx, job.projectId, job.importId);
  if (record.status !== 'committing' || record.operation_id !== operationId) {
    throw new ServiceError('IMPORT_WRONG_STATE', `This import is ${record.status}; it was not applied.`);
  }
  const result = await applyImport(ctx, record, JSON.parse(record.mapping!) as ImportMapping, {
    skipRowsWithErrors: job.skipRowsWithErrors,
  });
  return { importId: record.id, ...result };
}

/**
 * A commit that ended without applying: a canceled one leaves the import previewed as it was (commit it again or
 * cancel it), a failed one marks it failed (preview or commit it again). Only while it is still this operation's.
 */
export async function settleCommit(
  tx: Db,
  job: CommitJob,
  operationId: string,
  status: 'failed' | 'canceled',
  now: string,
) {
  const row = await tx
    .selectFrom('imports')
    .select('version')
    .where('id', '=', job.importId)
    .where('status', '=', 'committing')
    .where('operation_id', '=', operationId)
    .executeTakeFirst();
  if (!row) return;
  await tx
    .updateTable('imports')
    .set({ status: status === 'canceled' ? 'previewed' : 'failed', updated_at: now, version: row.version + 1 })
    .where('id', '=', job.importId)
    .execute();
}

/**
 * Cancels an import before it is committed: nothing reaches the schedule, and its kept cells are cleared. Canceling
 * a canceled import changes nothing; a committed (or committing) one cannot be canceled.
 */
export async function cancelImport(ctx: ActionContext, projectId: string, importId: string) {
  const record = await loadImport(ctx, projectId, importId);
  if (record.status === 'canceled') {
    ctx.unchanged();
    return getImport(ctx, projectId, importId);
  }
  assertStatus(record, ['uploaded', 'previewed', 'failed'], 'canceled');
  await ctx.db
    .updateTable('imports')
    .set({ status: 'canceled', canceled_at: ctx.now, updated_at: ctx.now, version: record.version + 1 })
    .where('id', '=', record.id)
    .execute();
  await ctx.db.updateTable('import_sheets').set({ cells: null }).where('import_id', '=', record.id).execute();
  ctx.audit({
    targetKind: 'import',
    targetId: record.id,
    projectId,
    summary: `Canceled the import of ${record.filename}`,
    changes: { status: { from: record.status, to: 'canceled' } },
  });
  return getImport(ctx, projectId, importId);
}
