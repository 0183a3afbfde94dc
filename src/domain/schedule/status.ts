import type { LineStatus } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { presentLine, type PresentedLine } from './line-record.js';
import { applyPatch, assertActive, loadLine, presentationFor } from './lines.js';

/**
 * Moves a line to another status. Setting the status it already has changes nothing (no new version), so an agent
 * retrying the same act with the same expectedVersion gets the same answer instead of a conflict.
 */
export async function setLineStatus(
  ctx: ActionContext,
  projectId: string,
  lineId: string,
  status: LineStatus,
): Promise<PresentedLine> {
  const before = await loadLine(ctx, projectId, lineId);
  assertActive(before);
  if (before.status === status) {
    ctx.audit({
      targetKind: 'line',
      targetId: lineId,
      projectId,
      summary: `Line ${before.code ?? before.heading} is already ${status}; nothing changed`,
      changes: {},
    });
    return presentLine(before, await presentationFor(ctx, projectId, [before]));
  }
  return applyPatch(ctx, before, { status });
}
