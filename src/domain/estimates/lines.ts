import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { minorUnits, roundToPlaces } from '../../core/money.js';
import { archiveDocumentLines, type DocumentLinesKind, patchDocumentLines } from '../kit/document-lines.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { loadLine, presentationFor } from '../schedule/lines.js';
import { derivePricing } from '../schedule/pricing.js';
import type { EstimateHead } from './draft.js';
import { ESTIMATE_LINE_RECORD, type EstimateLineRow, type EstimateRow } from './record.js';

export type NewEstimateLine = CreateFields<typeof ESTIMATE_LINE_RECORD.spec.fields>;
export type EstimateLinePatch = PatchFields<typeof ESTIMATE_LINE_RECORD.spec.fields> & { estimateLineId: string };

/** A duplicate copies what its source offered even when a schedule line was archived since. */
export interface DraftOptions {
  allowArchivedLines?: boolean;
}

/** At most this many lines are added, changed or removed in one call. */
export const LINES_PER_CALL = 500;

/** The next free position in an estimate (after its removed lines too, so positions never repeat). */
async function nextPosition(ctx: Pick<ActionContext, 'db'>, estimateId: string) {
  const last = await ctx.db
    .selectFrom('estimate_lines')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('estimate_id', '=', estimateId)
    .executeTakeFirst();
  return Number(last?.p ?? 0) + 1;
}

/**
 * New estimate lines from schedule lines: what is not sent is copied from the line as it is now (its heading, code,
 * description, quantity and unit, its client price rounded to the minor unit) and the studio's tax rate. An archived
 * line, or one the estimate already offers, is refused.
 */
export async function draftLines(
  ctx: ActionContext,
  estimate: EstimateRow,
  head: EstimateHead,
  sent: readonly NewEstimateLine[],
  options: DraftOptions = {},
): Promise<EstimateLineRow[]> {
  const offered = await ctx.db
    .selectFrom('estimate_lines')
    .select('line_id')
    .where('estimate_id', '=', estimate.id)
    .where('archived_at', 'is', null)
    .execute();
  const taken = new Set(offered.map((o) => o.line_id));
  let position = await nextPosition(ctx, estimate.id);
  const rows: EstimateLineRow[] = [];
  for (const [i, s] of sent.entries()) {
    const line = await loadLine(ctx, estimate.project_id, s.lineId);
    if (line.archived_at && !options.allowArchivedLines) {
      throw new ServiceError(
        'ARCHIVED',
        `Line ${line.code ?? line.heading} is archived; restore it before offering it.`,
      );
    }
    if (taken.has(line.id)) {
      throw new ServiceError('VALIDATION_FAILED', `The estimate already offers ${line.code ?? line.heading}.`, {
        errors: [
          { path: `lines.${i}.lineId`, message: 'Already on this estimate; change it with update_estimate_draft.' },
        ],
      });
    }
    taken.add(line.id);
    const presentation = await presentationFor(ctx, estimate.project_id, [line]);
    const d = derivePricing(line, presentation.defaultMarkup4);
    const price4 = d.clientRate8 === null ? null : roundToPlaces(d.clientRate8, 8, minorUnits(estimate.currency));
    const fromLine: NewEstimateLine = {
      lineId: line.id,
      reference: line.code,
      wording: line.heading,
      description: line.description,
      quantity: { amount4: line.quantity4 },
      unitPrice:
        price4 === null
          ? { state: d.client.state === 'set' ? 'tbc' : d.client.state }
          : { state: 'set', amount4: price4.toString() },
      taxRate: { ratio4: head.tax_rate4 },
    };
    const given = Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));
    rows.push(
      ESTIMATE_LINE_RECORD.newRow(
        {
          ...fromLine,
          ...given,
          lineId: line.id,
          estimateId: estimate.id,
          position: position++,
          unitName: presentation.unitName(line.unit_id),
          currency: estimate.currency,
        },
        { id: newId(), ownerId: estimate.project_id, now: ctx.now },
      ),
    );
  }
  if (rows.length) await ctx.db.insertInto('estimate_lines').values(rows).execute();
  return rows;
}

/** An estimate's lines, for the document-lines kit. */
const ESTIMATE_LINES: DocumentLinesKind<EstimateLineRow> = {
  table: 'estimate_lines',
  parentColumn: 'estimate_id',
  patchColumns: (patch) => ESTIMATE_LINE_RECORD.patchColumns(patch),
  missing: (estimate, id) => `Estimate ${estimate.number} has no line ${id} (get_estimate lists them).`,
};

/** Changes what the estimate says about some of its lines; each changed line's version goes up. */
export const patchLines = (ctx: ActionContext, estimate: EstimateRow, patches: readonly EstimateLinePatch[]) =>
  patchDocumentLines(
    ctx,
    ESTIMATE_LINES,
    estimate,
    patches.map(({ estimateLineId, ...patch }) => ({ id: estimateLineId, patch })),
  );

/** Removes lines from the draft: archived, never deleted (an issued revision may name them). */
export const archiveLines = (ctx: ActionContext, estimate: EstimateRow, ids: readonly string[]) =>
  archiveDocumentLines(ctx, ESTIMATE_LINES, estimate, ids);
