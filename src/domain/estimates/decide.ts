/**
 * Stable exports (other domains build on them):
 *   decideRevision(ctx, input: DecideRevisionInput): Promise<EstimateDecision>
 *     input = { revisionId, digest, outcome: 'accepted' | 'declined' | 'by_line',
 *               lines?: { estimateLineId, outcome: 'accepted' | 'declined' }[]   (by_line only: every piece once;
 *                                                                                 estimateLineId = the piece's pieceId)
 *               comment?, deciderName,
 *               by: { kind: 'client', shareId, verifiedEmail }
 *                 | { kind: 'studio', method: 'in_person' | 'phone' | 'email' | 'letter' | 'other', note? } }
 *   EstimateDecision: zod schema of the answer (the appended decision record).
 *   DeciderName, DecisionComment: zod schemas of those input fields, for the actions that take them.
 *   readDecision(db, revisionId): Promise<EstimateDecision | undefined>, the decision on a revision once made.
 *
 * Refusals: NOT_FOUND (no such revision in the context's studio), REVISION_ALREADY_DECIDED (a second decision),
 * REVISION_SUPERSEDED (superseded or voided), REVISION_EXPIRED (past validUntil), REVISION_DIGEST_MISMATCH,
 * VALIDATION_FAILED (pieces not covered exactly once). A keyed replay of the same decision is invoke's, not this.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import type { DecisionMethod, DecisionOutcome, LineOutcome } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { parseAmount4 } from '../../core/money.js';
import { depositOf, sumTaxed } from '../../core/taxed-lines.js';
import { assertAnswerable, moveRevisionState } from '../kit/revisions.js';
import type { RevisionContent } from './client-revision.js';
import { moneyOf } from './figures.js';
import { ESTIMATE_DECISION_RECORD } from './record.js';
import { ESTIMATE_REVISIONS } from './revision-kind.js';

export const EstimateDecision = ESTIMATE_DECISION_RECORD.output;
export type EstimateDecision = z.input<typeof EstimateDecision>;

export const DeciderName = z.string().trim().min(1).max(200).describe('The name the person deciding types.');
export const DecisionComment = z.string().max(5000).describe('Anything the client wants to say with the decision.');

export interface DecideRevisionInput {
  revisionId: string;
  digest: string;
  outcome: 'accepted' | 'declined' | 'by_line';
  lines?: ReadonlyArray<{ estimateLineId: string; outcome: LineOutcome }> | undefined;
  comment?: string | undefined;
  deciderName: string;
  by:
    | { kind: 'client'; shareId: string; verifiedEmail: string }
    | { kind: 'studio'; method: DecisionMethod; note?: string | null | undefined };
}

const REVISION = `
  SELECT r.id, r.project_id, r.estimate_id, r.number, r.state, r.valid_until, r.digest, r.content, e.title
  FROM estimate_revisions r JOIN estimates e ON e.id = r.estimate_id JOIN projects p ON p.id = r.project_id
  WHERE r.id = ? AND p.studio_id = ?`;

interface RevisionHead {
  id: string;
  project_id: string;
  estimate_id: string;
  number: number;
  state: 'current' | 'superseded' | 'decided' | 'voided';
  valid_until: string | null;
  digest: string;
  content: string;
  title: string;
}

/** Reads the revision a decision names, refusing one that cannot take it. */
export async function decidableRevision(
  ctx: Pick<ActionContext, 'queryRow' | 'studioId'>,
  revisionId: string,
  digest: string,
  now: string,
) {
  const row = await ctx.queryRow<RevisionHead>(REVISION, revisionId, ctx.studioId);
  if (!row) throw new ServiceError('NOT_FOUND', `No estimate revision ${revisionId} exists here.`);
  if (row.state === 'decided') {
    throw new ServiceError(
      'REVISION_ALREADY_DECIDED',
      `Revision ${row.number} of "${row.title}" is already decided; get_estimate_revision shows the decision.`,
    );
  }
  assertAnswerable(ESTIMATE_REVISIONS, row, digest, now);
  return { row, content: JSON.parse(row.content) as RevisionContent };
}

/** Each piece's answer: all one way, or by_line with every piece named exactly once. */
export function pieceOutcomes(content: RevisionContent, input: Pick<DecideRevisionInput, 'outcome' | 'lines'>) {
  const ids = content.pieces.map((p) => p.pieceId);
  if (input.outcome !== 'by_line') {
    if (input.lines?.length) {
      throw new ServiceError('VALIDATION_FAILED', 'Send lines only with outcome by_line.', {
        errors: [{ path: 'lines', message: `Leave it out when outcome is ${input.outcome}.` }],
      });
    }
    return ids.map((pieceId) => ({ pieceId, outcome: input.outcome as LineOutcome }));
  }
  const given = new Map<string, LineOutcome>();
  const problems: Array<{ path: string; message: string }> = [];
  (input.lines ?? []).forEach((l, i) => {
    if (!ids.includes(l.estimateLineId)) {
      problems.push({ path: `lines.${i}.estimateLineId`, message: 'Not a piece of this revision.' });
    } else if (given.has(l.estimateLineId)) {
      problems.push({ path: `lines.${i}.estimateLineId`, message: 'Named twice.' });
    }
    given.set(l.estimateLineId, l.outcome);
  });
  const missing = ids.filter((id) => !given.has(id));
  if (missing.length) problems.push({ path: 'lines', message: `No answer for pieces ${missing.join(', ')}.` });
  if (problems.length) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      "A decision by line answers every piece of the revision exactly once (their pieceId from the revision's pieces).",
      { errors: problems },
    );
  }
  return ids.map((pieceId) => ({ pieceId, outcome: given.get(pieceId)! }));
}

/** accepted, declined, or partly_accepted when the answers differ. */
const overall = (outcomes: ReadonlyArray<{ outcome: LineOutcome }>): DecisionOutcome =>
  outcomes.every((o) => o.outcome === 'accepted')
    ? 'accepted'
    : outcomes.every((o) => o.outcome === 'declined')
      ? 'declined'
      : 'partly_accepted';

/** The accepted pieces the totals count, summed as issued (their rounded figures), and the deposit on that gross. */
function acceptedFigures(content: RevisionContent, outcomes: ReadonlyArray<{ pieceId: string; outcome: LineOutcome }>) {
  const accepted = new Set(outcomes.filter((o) => o.outcome === 'accepted').map((o) => o.pieceId));
  const lines = content.pieces
    .filter((p) => accepted.has(p.pieceId) && !p.excludedFromTotal && p.net && p.tax && p.gross)
    .map((p) => ({
      net4: parseAmount4(p.net!.amount4),
      tax4: parseAmount4(p.tax!.amount4),
      gross4: parseAmount4(p.gross!.amount4),
    }));
  const sum = sumTaxed(lines);
  const c = content.currency;
  return {
    accepted: { net: moneyOf(sum.net4, c), tax: moneyOf(sum.tax4, c), gross: moneyOf(sum.gross4, c) },
    deposit: moneyOf(depositOf(sum.gross4, parseAmount4(content.deposit.percent.ratio4), c), c),
  };
}

/**
 * Records the decision on one exact revision: appends the decision, marks the revision decided and the estimate
 * accepted, partly_accepted or declined. Answers the decision as recorded.
 */
export async function decideRevision(ctx: ActionContext, input: DecideRevisionInput): Promise<EstimateDecision> {
  const { row, content } = await decidableRevision(ctx, input.revisionId, input.digest, ctx.now);
  const outcomes = pieceOutcomes(content, input);
  const outcome = overall(outcomes);
  const figures = acceptedFigures(content, outcomes);
  const by =
    input.by.kind === 'client'
      ? input.by
      : {
          kind: 'studio' as const,
          memberId: ctx.caller!.memberId,
          method: input.by.method,
          note: input.by.note ?? null,
        };
  const decision = ESTIMATE_DECISION_RECORD.newRow(
    {
      estimateId: row.estimate_id,
      revisionId: row.id,
      revisionDigest: row.digest,
      outcome,
      pieces: outcomes,
      currency: content.currency,
      ...figures,
      comment: input.comment ?? '',
      deciderName: input.deciderName.trim(),
      decidedBy: by,
      decidedAt: ctx.now,
    },
    { id: newId(), ownerId: row.project_id, now: ctx.now },
  );
  // The estimate first, as issuing and voiding take it: a decision racing either waits for it, then finds the
  // revision no longer current and is refused with the reason.
  const claimed = await ctx.db
    .updateTable('estimates')
    .set((eb) => ({ state: outcome, updated_at: ctx.now, version: eb('version', '+', 1) }))
    .where('id', '=', row.estimate_id)
    .where('state', '=', 'issued')
    .where('current_revision_id', '=', row.id)
    .executeTakeFirst();
  if (
    claimed.numUpdatedRows !== 1n ||
    !(await moveRevisionState(ctx, ESTIMATE_REVISIONS, row.id, 'current', 'decided'))
  ) {
    await decidableRevision(ctx, input.revisionId, input.digest, ctx.now);
    throw new ServiceError('REVISION_SUPERSEDED', `Revision ${row.number} of "${row.title}" changed meanwhile.`);
  }
  await ctx.db.insertInto('estimate_decisions').values(decision).execute();
  const who =
    by.kind === 'client' ? `${decision.decider_name} (${by.verifiedEmail}, verified)` : `the studio (${by.method})`;
  ctx.audit({
    targetKind: 'estimate_decision',
    targetId: decision.id,
    projectId: row.project_id,
    summary: `Revision ${row.number} of "${row.title}" ${outcome.replace('_', ' ')}, recorded by ${who}`,
    changes: { outcome: { from: null, to: outcome }, revisionId: { from: null, to: row.id } },
  });
  return ESTIMATE_DECISION_RECORD.present(decision, {});
}

/** The decision on a revision, once there is one (a replay of a keyed decision answers it too). */
export async function readDecision(db: Kysely<Database>, revisionId: string): Promise<EstimateDecision | undefined> {
  const row = await db
    .selectFrom('estimate_decisions')
    .selectAll()
    .where('revision_id', '=', revisionId)
    .executeTakeFirst();
  return row && ESTIMATE_DECISION_RECORD.present(row, {});
}
