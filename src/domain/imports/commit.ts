import type { ImportRow } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { type ApplyProgress, applyPlan } from './apply.js';
import type { ImportMapping } from './fields.js';
import { dataRowCount, MAX_IMPORT_ROWS, tooManyRows } from './limits.js';
import { readLookups } from './lookups.js';
import { planImport } from './plan.js';
import { defaultSection } from './preview.js';
import { assertStatus, getImport, type ImportResult, loadImport } from './records.js';
import { sheetRows } from './sheet-rows.js';

/**
 * Applies an import to its project's schedule, all of it or nothing, in the caller's one write transaction: its sheet
 * read again, planned with `mapping` against the sections and suppliers as they are now, written (apply.ts), and the
 * import marked committed with what it made; its kept cells are cleared (the file stays in the blob store). Any
 * failure, a cell error included (unless `skipRowsWithErrors`), throws and leaves nothing.
 *
 * This is the body an operation will run: TODO(operations): commit_schedule_import and create_import (phase commit)
 * are to answer 202 with the operation (status committing, recorded in the accepting transaction), and the worker is
 * to call this with the operation's progress reporter, marking the import failed in a transaction of its own if it
 * throws. Until then commit_schedule_import calls it synchronously.
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

/** Commits a previewed import now, in this request's transaction (see applyImport's TODO); `invoke` checked the version. */
export async function commitImport(ctx: ActionContext, input: CommitInput) {
  const record = await loadImport(ctx, input.projectId, input.importId);
  assertStatus(record, ['previewed'], 'committed');
  await applyImport(ctx, record, JSON.parse(record.mapping!) as ImportMapping, {
    skipRowsWithErrors: input.skipRowsWithErrors,
  });
  return getImport(ctx, input.projectId, input.importId);
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
