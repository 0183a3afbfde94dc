import type { ActionContext } from '../../core/context.js';
import { ServiceError, type FieldProblem } from '../../core/errors.js';
import type { LineRow } from './record.js';
import type { PresentedLine } from './line-record.js';
import { type LinePatchInput, patchLine } from './line-patch.js';
import { loadLine } from './lines.js';

export const BULK_UPDATE_MAX = 500;

export interface BulkLineUpdate {
  lineId: string;
  expectedVersion: number;
  patch: LinePatchInput;
}

/**
 * All or nothing: every line's version is checked before any is written, inside the caller's one transaction. Any
 * mismatch (or an archived line) throws, so the transaction rolls back and nothing is applied; the error names every
 * stale line so the caller can re-read exactly those.
 */
export async function bulkUpdateLines(
  ctx: ActionContext,
  projectId: string,
  updates: readonly BulkLineUpdate[],
): Promise<{ lines: PresentedLine[] }> {
  const seen = new Map<string, number>();
  for (const [i, u] of updates.entries()) {
    const first = seen.get(u.lineId);
    if (first !== undefined) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `Line ${u.lineId} appears twice (lines.${first} and lines.${i}); merge its patches into one entry.`,
        {
          errors: [{ path: `lines.${i}.lineId`, message: 'Each line may appear once per bulk update.' }],
        },
      );
    }
    seen.set(u.lineId, i);
  }
  const rows: LineRow[] = [];
  const stale: Array<{ index: number; row: LineRow; expected: number }> = [];
  for (const [index, u] of updates.entries()) {
    const row = await loadLine(ctx, projectId, u.lineId);
    if (row.version !== u.expectedVersion) stale.push({ index, row, expected: u.expectedVersion });
    rows.push(row);
  }
  if (stale.length) {
    const first = stale[0]!;
    const errors: FieldProblem[] = stale.map((s) => ({
      path: `lines.${s.index}.expectedVersion`,
      message: `Line ${s.row.id} (${s.row.code ?? s.row.heading}) is at version ${s.row.version}, not ${s.expected}.`,
    }));
    throw new ServiceError(
      'VERSION_CONFLICT',
      `Line ${first.row.id} (${first.row.code ?? first.row.heading}) has changed since you read it (it is at version ${first.row.version})${stale.length > 1 ? `, and ${stale.length - 1} more` : ''}; nothing was applied. Read the lines again, reapply your changes and report.`,
      { errors, extra: { lineId: first.row.id, currentVersion: first.row.version } },
    );
  }
  for (const row of rows) {
    if (row.archived_at)
      throw new ServiceError(
        'ARCHIVED',
        `Line ${row.id} (${row.code ?? row.heading}) is archived; restore it or leave it out. Nothing was applied.`,
      );
  }
  const lines: PresentedLine[] = [];
  // A refusal part way (a property value that does not fit) throws, and the transaction undoes the lines before it.
  for (const [i, row] of rows.entries()) lines.push(await patchLine(ctx, row, updates[i]!.patch, `lines.${i}.patch`));
  return { lines };
}
