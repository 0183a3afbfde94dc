import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { claimRow } from '../kit/claim-row.js';
import { inProject } from '../kit/in-project.js';
import { figuresOf, moneyOf } from '../kit/line-money.js';
import { offerFigures } from './figures.js';
import { ESTIMATE_LINE_RECORD, ESTIMATE_RECORD, type EstimateLineRow, type EstimateRow } from './record.js';

/** The project and studio facts an estimate shows: names, and the studio's tax rate for new lines. */
export interface EstimateHead {
  project_name: string;
  currency: Currency;
  studio_name: string;
  tax_rate4: string;
}

const HEAD = `
  SELECT p.name AS project_name, p.currency, COALESCE(s.brand_display_name, s.name) AS studio_name, s.tax_rate4
  FROM projects p JOIN studios s ON s.id = p.studio_id WHERE p.id = ?`;

export async function estimateHead(ctx: Pick<ActionContext, 'queryRow'>, projectId: string) {
  const head = await ctx.queryRow<EstimateHead>(HEAD, projectId);
  if (!head) throw new ServiceError('NOT_FOUND', `No project ${projectId} exists in your studio.`);
  return head;
}

/** An estimate of the project, or NOT_FOUND. */
export async function loadEstimate(ctx: Pick<ActionContext, 'db'>, projectId: string, estimateId: string) {
  const row = await inProject(ctx.db, 'estimates', projectId, estimateId);
  if (!row) throw new ServiceError('NOT_FOUND', `No estimate ${estimateId} exists in this project.`);
  return row;
}

/** Refuses a change to a closed (decided or voided) estimate's draft. */
export function assertOpen(estimate: EstimateRow) {
  if (estimate.state === 'draft' || estimate.state === 'issued') return;
  throw new ServiceError(
    'ESTIMATE_CLOSED',
    `Estimate ${estimate.number} ("${estimate.title}") is ${estimate.state.replace('_', ' ')}, so it no longer changes; duplicate_estimate starts a new draft from it.`,
  );
}

/** The active lines of some estimates, in their order. */
export async function activeLines(db: Kysely<Database>, estimateIds: readonly string[]) {
  if (!estimateIds.length) return [];
  return db
    .selectFrom('estimate_lines')
    .selectAll()
    .where('estimate_id', 'in', estimateIds)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** An estimate line as the API shows it, with its own figures. */
export function presentLine(row: EstimateLineRow, figures: ReturnType<typeof offerFigures>) {
  const f = figures.perLine.get(row.id);
  return ESTIMATE_LINE_RECORD.present(row, f ? figuresOf(f, row.currency) : { net: null, tax: null, gross: null });
}

/** The draft figures of an estimate from its active lines. */
export function draftFigures(estimate: EstimateRow, lines: readonly EstimateLineRow[]) {
  return offerFigures(lines, estimate.deposit_percent4, estimate.currency);
}

/** An estimate as lists show it: the record with its draft totals. */
export function presentEstimate(estimate: EstimateRow, lines: readonly EstimateLineRow[]) {
  const f = draftFigures(estimate, lines);
  const c = estimate.currency;
  return ESTIMATE_RECORD.present(estimate, {
    draftTotals: { ...figuresOf(f.totals, c), deposit: moneyOf(f.deposit4, c), piecesToPrice: f.toPrice.length },
  });
}

/** An estimate whole: the record, its draft totals and its active lines with their figures. */
export function presentWhole(estimate: EstimateRow, lines: readonly EstimateLineRow[]) {
  const f = draftFigures(estimate, lines);
  return { ...presentEstimate(estimate, lines), lines: lines.map((l) => presentLine(l, f)) };
}

/** Reads an estimate whole, as get_estimate answers it. */
export async function readWhole(ctx: Pick<ActionContext, 'db'>, projectId: string, estimateId: string) {
  const estimate = await loadEstimate(ctx, projectId, estimateId);
  return presentWhole(estimate, await activeLines(ctx.db, [estimate.id]));
}

/**
 * Writes an estimate's state columns only if it is still at the version it was read at, bumping it: an issue, a void
 * and a decision racing for one estimate cannot both go ahead (the loser is VERSION_CONFLICT, never a half-write).
 */
export const claimEstimate = (
  ctx: Pick<ActionContext, 'db' | 'now'>,
  estimate: EstimateRow,
  cols: Partial<Pick<EstimateRow, 'state' | 'current_revision_id' | 'revision_count' | 'void_reason' | 'voided_at'>>,
) => claimRow(ctx, 'estimates', estimate, cols, `Estimate ${estimate.number} changed meanwhile; read it again.`);
