import type { ActionContext } from '../../core/context.js';

/** What reading a draft needs: the request's connection (a question's read snapshot, or the write). */
type Reader = Pick<ActionContext, 'db' | 'queryRow'>;
import { ServiceError } from '../../core/errors.js';
import { displayAmount, minorUnits } from '../../core/money.js';
import { issueRevision, nextRevisionNumber } from '../kit/revisions.js';
import type { RevisionContent } from './client-revision.js';
import {
  activeLines,
  assertOpen,
  claimEstimate,
  draftFigures,
  type EstimateHead,
  estimateHead,
  loadEstimate,
} from './draft.js';
import { newId } from '../../core/ids.js';
import { moneyOf } from './figures.js';
import type { EstimateLineRow, EstimateRow } from './record.js';
import { presentRevision } from './revisions.js';
import { ESTIMATE_REVISIONS } from './revision-kind.js';

/** What revision `number` of the draft would freeze: the client's view of its lines, totals, deposit and terms. */
function contentOf(
  estimate: EstimateRow,
  lines: readonly EstimateLineRow[],
  head: EstimateHead,
  number: number,
  issuedAt: string,
): RevisionContent {
  const f = draftFigures(estimate, lines);
  const c = estimate.currency;
  const money = (n: bigint | undefined) => (n === undefined ? null : moneyOf(n, c));
  return {
    estimateId: estimate.id,
    estimateNumber: estimate.number,
    revisionNumber: number,
    title: estimate.title,
    introduction: estimate.introduction,
    projectName: head.project_name,
    studioName: head.studio_name,
    currency: c,
    issuedAt,
    validUntil: estimate.valid_until,
    pieces: lines.map((l) => {
      const t = f.perLine.get(l.id) ?? undefined;
      return {
        pieceId: l.id,
        reference: l.reference,
        wording: l.wording,
        description: l.description,
        quantity: { amount4: l.quantity4, unit: l.unit_name },
        priceState: l.price_state,
        unitPrice: l.price_state === 'set' && l.price4 !== null ? moneyOf(BigInt(l.price4), c) : null,
        taxRate: { ratio4: l.tax_rate4 },
        net: money(t?.net4),
        tax: money(t?.tax4),
        gross: money(t?.gross4),
        excludedFromTotal: l.excluded === 1,
      };
    }),
    leftOutOfTotal: f.leftOut.map((o) => ({ pieceId: o.id, wording: o.wording, reason: o.reason })),
    totals: { net: moneyOf(f.totals.net4, c), tax: moneyOf(f.totals.tax4, c), gross: moneyOf(f.totals.gross4, c) },
    deposit: { percent: { ratio4: estimate.deposit_percent4 }, amount: moneyOf(f.deposit4, c) },
    paymentTerms: estimate.payment_terms,
  };
}

/**
 * The next revision of an open estimate, as an issue would freeze it now; refuses a draft that offers nothing, one
 * with a piece to price that is not excluded, and a valid-until date already past.
 */
async function nextRevision(ctx: Reader, now: string, projectId: string, estimateId: string) {
  const estimate = await loadEstimate(ctx, projectId, estimateId);
  assertOpen(estimate);
  const lines = await activeLines(ctx.db, [estimate.id]);
  if (!lines.length) {
    throw new ServiceError('ESTIMATE_INCOMPLETE', 'The estimate offers no lines; add_estimate_lines first.');
  }
  const toPrice = draftFigures(estimate, lines).toPrice;
  if (toPrice.length) {
    throw new ServiceError(
      'ESTIMATE_INCOMPLETE',
      `${toPrice.length} offered line${toPrice.length === 1 ? ' has' : 's have'} no set client price: set a unitPrice, or mark excludedFromTotal (update_estimate_draft), then issue again.`,
      {
        errors: toPrice.map((l) => ({
          path: `lines.${l.id}`,
          message: `${l.wording}: price ${l.price_state}.`,
        })),
      },
    );
  }
  if (estimate.valid_until !== null && estimate.valid_until < now.slice(0, 10)) {
    throw new ServiceError('VALIDATION_FAILED', `The estimate is valid until ${estimate.valid_until}, already past.`, {
      errors: [{ path: 'validUntil', message: 'Set a later date with update_estimate_draft, or null for none.' }],
    });
  }
  const number = await nextRevisionNumber(ctx.db, ESTIMATE_REVISIONS, estimate.id);
  const content = contentOf(estimate, lines, await estimateHead(ctx, projectId), number, now);
  return { estimate, content };
}

const shown = (m: { amount4: string; currency: string }) =>
  `${m.currency} ${displayAmount(BigInt(m.amount4), minorUnits(m.currency))}`;

/** The question put to the person before an issue: what the client will be offered, in figures. */
export async function issueQuestion(ctx: Reader, input: { projectId: string; estimateId: string }) {
  const { estimate, content } = await nextRevision(ctx, new Date().toISOString(), input.projectId, input.estimateId);
  const left = content.leftOutOfTotal.length;
  return [
    `Issue revision ${content.revisionNumber} of estimate ${estimate.number} "${estimate.title}" to the client:`,
    `${content.pieces.length} piece${content.pieces.length === 1 ? '' : 's'}, ${shown(content.totals.gross)} including tax of ${shown(content.totals.tax)}`,
    `, deposit ${shown(content.deposit.amount)}${left ? `; ${left} left out of the total` : ''}.`,
    estimate.current_revision_id ? ` Revision ${content.revisionNumber - 1} will be superseded.` : '',
    ' An issued revision never changes.',
  ].join('');
}

/** Freezes the draft into its next revision, superseding the current one; the estimate becomes issued. */
export async function issueEstimateRevision(ctx: ActionContext, projectId: string, estimateId: string) {
  const { estimate, content } = await nextRevision(ctx, ctx.now, projectId, estimateId);
  const c = content.currency;
  // The estimate first: of two issues racing from the same version, the second waits here and is refused.
  const revisionId = newId();
  await claimEstimate(ctx, estimate, {
    state: 'issued',
    current_revision_id: revisionId,
    revision_count: content.revisionNumber,
  });
  const revision = await issueRevision(ctx, ESTIMATE_REVISIONS, {
    id: revisionId,
    parentId: estimate.id,
    projectId,
    number: content.revisionNumber,
    validUntil: content.validUntil,
    content,
    columns: {
      currency: c,
      net4: content.totals.net.amount4,
      tax4: content.totals.tax.amount4,
      gross4: content.totals.gross.amount4,
      deposit4: content.deposit.amount.amount4,
    },
  });
  ctx.audit({
    targetKind: 'estimate_revision',
    targetId: revision.id,
    projectId,
    summary: `Issued revision ${content.revisionNumber} of estimate ${estimate.number} "${estimate.title}" (${shown(content.totals.gross)})`,
    changes: { digest: { from: null, to: revision.digest }, state: { from: estimate.state, to: 'issued' } },
  });
  return presentRevision(ctx, revision.id);
}
