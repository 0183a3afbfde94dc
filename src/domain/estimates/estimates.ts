import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { nextNumberInProject } from '../kit/next-number.js';
import { namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, projectScope, textFilter } from '../kit/listing.js';
import { z } from 'zod';
import { ESTIMATE_STATES } from '../../../db/vocabulary.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { containsText } from '../kit/text-search.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import {
  activeLines,
  assertOpen,
  estimateHead,
  loadEstimate,
  presentEstimate,
  presentWhole,
  readWhole,
} from './draft.js';
import {
  archiveLines,
  type DraftOptions,
  draftLines,
  type EstimateLinePatch,
  type NewEstimateLine,
  patchLines,
} from './lines.js';
import { ESTIMATE_RECORD, type EstimateLineRow, type EstimateRow } from './record.js';

export const ESTIMATE_SORTS = namedSorts(
  { number: { column: 'estimates.number' }, updatedAt: { column: 'estimates.updated_at' } },
  { column: 'estimates.id' },
);

export const ESTIMATE_LISTING = defineListing({
  filters: {
    ...projectScope,
    state: z.enum(ESTIMATE_STATES).optional().describe('Only estimates in this state.'),
    q: textFilter('the title'),
  },
  sorts: ESTIMATE_SORTS,
  defaultSort: 'number',
});

/** A project's estimates, newest number last unless sorted otherwise, each with its draft totals. */
export async function listEstimates(ctx: ActionContext, query: ListingQuery<typeof ESTIMATE_LISTING>) {
  let qb = ctx.db.selectFrom('estimates').selectAll('estimates').where('estimates.project_id', '=', query.projectId);
  if (query.state) qb = qb.where('estimates.state', '=', query.state);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) => eb.or(containsText(['estimates.title'], q)));
  }
  const { rows, nextCursor } = await ESTIMATE_LISTING.page(qb, query);
  const lines = await activeLines(
    ctx.db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) =>
      presentEstimate(
        r,
        lines.filter((l) => l.estimate_id === r.id),
      ),
    ),
    nextCursor,
  };
}

export const getEstimate = (ctx: ActionContext, projectId: string, estimateId: string) =>
  readWhole(ctx, projectId, estimateId);

export type EstimateTerms = CreateFields<typeof ESTIMATE_RECORD.spec.fields>;

/** Makes a draft estimate (with lines, when given), numbered next in its project. */
export async function createEstimate(
  ctx: ActionContext,
  projectId: string,
  terms: EstimateTerms,
  lines: readonly NewEstimateLine[] = [],
  duplicatedFrom: string | null = null,
  options: DraftOptions = {},
) {
  const head = await estimateHead(ctx, projectId);
  const number = await nextNumberInProject(ctx.db, 'estimates', projectId);
  const estimate = ESTIMATE_RECORD.newRow(
    {
      ...terms,
      title: terms.title ?? `${head.project_name}: estimate ${number}`,
      number,
      currency: head.currency,
      state: 'draft',
      revisionCount: 0,
      duplicatedFrom,
      createdBy: ctx.caller!.memberId,
    },
    { id: newId(), ownerId: projectId, now: ctx.now },
  );
  await ctx.db.insertInto('estimates').values(estimate).execute();
  const rows = await draftLines(ctx, estimate, head, lines, options);
  ctx.audit({
    targetKind: 'estimate',
    targetId: estimate.id,
    projectId,
    summary: `Created estimate ${number} "${estimate.title}" with ${rows.length} line${rows.length === 1 ? '' : 's'}`,
    changes: { created: { from: null, to: estimate.title } },
  });
  return presentWhole(estimate, rows);
}

/**
 * Writes an estimate's change through the one version-checked update, answering it whole. Its lines are part of what
 * changed: the before-row is shown with the lines it had, so a change to them alone is a change too.
 */
async function writeEstimate(
  ctx: ActionContext,
  before: EstimateRow,
  linesBefore: EstimateLineRow[],
  cols: object,
  summary: string,
) {
  const lines = await activeLines(ctx.db, [before.id]);
  return versionedUpdate(ctx, 'estimates', before, cols, {
    present: (row) => presentWhole(row, row.version === before.version ? linesBefore : lines),
    audit: () => ({ targetKind: 'estimate', projectId: before.project_id, summary }),
  });
}

const nothingToChange = () =>
  new ServiceError('VALIDATION_FAILED', 'Give at least one term or line to change.', {
    errors: [{ path: '(input)', message: 'Nothing to change.' }],
  });

/** Changes a draft's terms and what it says about some of its lines. */
export async function updateEstimateDraft(
  ctx: ActionContext,
  projectId: string,
  estimateId: string,
  patch: PatchFields<typeof ESTIMATE_RECORD.spec.fields>,
  linePatches: readonly EstimateLinePatch[] = [],
) {
  const estimate = await loadEstimate(ctx, projectId, estimateId);
  assertOpen(estimate);
  const cols = ESTIMATE_RECORD.patchColumns(patch);
  if (!Object.keys(cols).length && !linePatches.length) throw nothingToChange();
  const before = await activeLines(ctx.db, [estimate.id]);
  await patchLines(ctx, estimate, linePatches);
  return writeEstimate(ctx, estimate, before, cols, `Updated the draft of estimate ${estimate.number}`);
}

/** Adds schedule lines to a draft. */
export async function addEstimateLines(
  ctx: ActionContext,
  projectId: string,
  estimateId: string,
  lines: readonly NewEstimateLine[],
) {
  const estimate = await loadEstimate(ctx, projectId, estimateId);
  assertOpen(estimate);
  const before = await activeLines(ctx.db, [estimate.id]);
  const rows = await draftLines(ctx, estimate, await estimateHead(ctx, projectId), lines);
  const n = rows.length;
  return writeEstimate(
    ctx,
    estimate,
    before,
    {},
    `Added ${n} line${n === 1 ? '' : 's'} to estimate ${estimate.number}`,
  );
}

/** Removes lines from a draft (archived, never deleted). */
export async function removeEstimateLines(
  ctx: ActionContext,
  projectId: string,
  estimateId: string,
  estimateLineIds: readonly string[],
) {
  const estimate = await loadEstimate(ctx, projectId, estimateId);
  assertOpen(estimate);
  const before = await activeLines(ctx.db, [estimate.id]);
  const rows = await archiveLines(ctx, estimate, estimateLineIds);
  const named = rows.map((r) => r.reference ?? r.wording).join(', ');
  return writeEstimate(ctx, estimate, before, {}, `Removed ${named} from estimate ${estimate.number}`);
}
