import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { keysetPage, namedSorts, type PageRequest, sortNames } from '../kit/keyset-page.js';
import { shownRevisionState } from '../kit/revisions.js';
import { readDecision } from './decide.js';
import { ESTIMATE_REVISION_RECORD, type EstimateRevisionRow } from './record.js';

/** A revision as the studio reads it: the record with its state as of now (expired shows). */
const present = (row: EstimateRevisionRow, now: string) => ({
  ...ESTIMATE_REVISION_RECORD.present(row, {}),
  state: shownRevisionState(row, now),
});

/** One revision whole, with its decision (null until decided). */
export async function presentRevision(ctx: Pick<ActionContext, 'db' | 'now'>, revisionId: string) {
  const row = await ctx.db.selectFrom('estimate_revisions').selectAll().where('id', '=', revisionId).executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No estimate revision ${revisionId} exists in this project.`);
  return { ...present(row, ctx.now), decision: (await readDecision(ctx.db, revisionId)) ?? null };
}

export async function getEstimateRevision(ctx: ActionContext, projectId: string, revisionId: string) {
  const shown = await presentRevision(ctx, revisionId);
  if (shown.projectId !== projectId) {
    throw new ServiceError('NOT_FOUND', `No estimate revision ${revisionId} exists in this project.`);
  }
  return shown;
}

export const REVISION_SORTS = namedSorts({ number: { column: 'number' } }, { column: 'id' });
export const REVISION_SORT_NAMES = sortNames(REVISION_SORTS);

/** An estimate's revisions, first issued first unless sorted otherwise; summaries without their content. */
export async function listEstimateRevisions(
  ctx: ActionContext,
  query: PageRequest & { estimateId: string; sort?: keyof typeof REVISION_SORTS | undefined },
) {
  const qb = ctx.db.selectFrom('estimate_revisions').selectAll().where('estimate_id', '=', query.estimateId);
  const { rows, nextCursor } = await keysetPage(qb, REVISION_SORTS[query.sort ?? 'number'], query);
  return {
    items: rows.map((r) => {
      const { content: _content, ...summary } = present(r, ctx.now);
      return summary;
    }),
    nextCursor,
  };
}
