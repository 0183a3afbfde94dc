import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { moveRevisionState } from '../kit/revisions.js';
import type { RevisionContent } from './client-revision.js';
import { activeLines, assertOpen, claimEstimate, loadEstimate, presentWhole } from './draft.js';
import { createEstimate } from './estimates.js';
import type { NewEstimateLine } from './lines.js';
import { ESTIMATE_REVISIONS } from './revision-kind.js';

/** The question put to the person before a void. */
export async function voidQuestion(ctx: Pick<ActionContext, 'db'>, input: { projectId: string; estimateId: string }) {
  const estimate = await loadEstimate(ctx, input.projectId, input.estimateId);
  assertOpen(estimate);
  const current = estimate.revision_count
    ? ` Revision ${estimate.revision_count} can no longer be decided, and its link stops taking decisions.`
    : '';
  return `Void estimate ${estimate.number} "${estimate.title}"?${current} A voided estimate is closed for good (duplicate_estimate starts again from it).`;
}

/** Voids an open estimate with a reason; its current revision, if any, is voided with it. */
export async function voidEstimate(ctx: ActionContext, projectId: string, estimateId: string, reason: string) {
  const estimate = await loadEstimate(ctx, projectId, estimateId);
  assertOpen(estimate);
  const after = { ...estimate, state: 'voided' as const, void_reason: reason, voided_at: ctx.now };
  await claimEstimate(ctx, estimate, { state: 'voided', void_reason: reason, voided_at: ctx.now });
  if (estimate.current_revision_id) {
    await moveRevisionState(ctx, ESTIMATE_REVISIONS, estimate.current_revision_id, 'current', 'voided');
  }
  ctx.audit({
    targetKind: 'estimate',
    targetId: estimate.id,
    projectId,
    summary: `Voided estimate ${estimate.number} "${estimate.title}": ${reason}`,
    changes: { state: { from: estimate.state, to: 'voided' }, voidReason: { from: null, to: reason } },
  });
  const lines = await activeLines(ctx.db, [estimate.id]);
  return presentWhole({ ...after, updated_at: ctx.now, version: estimate.version + 1 }, lines);
}

/** What a new draft copies from an estimate's draft: its active lines as they stand. */
async function fromEstimate(ctx: ActionContext, projectId: string, estimateId: string) {
  const estimate = await loadEstimate(ctx, projectId, estimateId);
  const lines = await activeLines(ctx.db, [estimate.id]);
  return {
    estimate,
    lines: lines.map(
      (l): NewEstimateLine => ({
        lineId: l.line_id,
        reference: l.reference,
        wording: l.wording,
        description: l.description,
        quantity: { amount4: l.quantity4 },
        unitPrice:
          l.price_state === 'set' && l.price4 !== null
            ? { state: 'set', amount4: l.price4 }
            : { state: l.price_state === 'set' ? 'tbc' : l.price_state },
        taxRate: { ratio4: l.tax_rate4 },
        excludedFromTotal: l.excluded === 1,
      }),
    ),
  };
}

/** What a new draft copies from an issued revision: its pieces exactly as issued, on the lines they froze. */
async function fromRevision(ctx: ActionContext, projectId: string, revisionId: string) {
  const row = await ctx.db
    .selectFrom('estimate_revisions')
    .select(['estimate_id', 'project_id', 'content'])
    .where('id', '=', revisionId)
    .executeTakeFirst();
  if (!row || row.project_id !== projectId) {
    throw new ServiceError('NOT_FOUND', `No estimate revision ${revisionId} exists in this project.`);
  }
  const content = JSON.parse(row.content) as RevisionContent;
  const frozen = await ctx.db
    .selectFrom('estimate_lines')
    .select(['id', 'line_id'])
    .where('estimate_id', '=', row.estimate_id)
    .execute();
  const lineOf = new Map(frozen.map((f) => [f.id, f.line_id]));
  return {
    estimate: await loadEstimate(ctx, projectId, row.estimate_id),
    lines: content.pieces.map(
      (p): NewEstimateLine => ({
        lineId: lineOf.get(p.pieceId)!,
        reference: p.reference,
        wording: p.wording,
        description: p.description,
        quantity: { amount4: p.quantity.amount4 },
        unitPrice: p.unitPrice
          ? { state: 'set', amount4: p.unitPrice.amount4 }
          : { state: p.priceState === 'set' ? 'tbc' : p.priceState },
        taxRate: p.taxRate,
        excludedFromTotal: p.excludedFromTotal,
      }),
    ),
  };
}

/**
 * Starts a new draft from an estimate (its draft as it stands) or from one of its revisions (exactly as issued):
 * same terms, same lines, numbered next in the project. The source is not changed.
 */
export async function duplicateEstimate(
  ctx: ActionContext,
  input: {
    projectId: string;
    estimateId?: string | undefined;
    revisionId?: string | undefined;
    title?: string | undefined;
  },
) {
  if (!input.estimateId === !input.revisionId) {
    throw new ServiceError('VALIDATION_FAILED', 'Name the estimate or the revision to start from: one of the two.', {
      errors: [
        {
          path: input.estimateId ? 'revisionId' : 'estimateId',
          message: 'Send exactly one of estimateId and revisionId.',
        },
      ],
    });
  }
  const source = input.revisionId
    ? await fromRevision(ctx, input.projectId, input.revisionId)
    : await fromEstimate(ctx, input.projectId, input.estimateId!);
  const e = source.estimate;
  return createEstimate(
    ctx,
    input.projectId,
    {
      title: input.title ?? e.title,
      introduction: e.introduction,
      validUntil: e.valid_until !== null && e.valid_until >= ctx.now.slice(0, 10) ? e.valid_until : null,
      depositPercent: { ratio4: e.deposit_percent4 },
      paymentTerms: e.payment_terms,
    },
    source.lines,
    input.revisionId ?? e.id,
    { allowArchivedLines: true },
  );
}
