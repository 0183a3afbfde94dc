import type { ActionContext } from '../../core/context.js';
import { readClientRevision } from '../estimates/client-revision.js';
import { ESTIMATE_DECISION_RECORD } from '../estimates/record.js';
import type { LiveShare } from '../shares/resolve.js';

type Reader = Pick<ActionContext, 'db' | 'now'>;

/**
 * What a decide link shows: the revision it names as the client sees it (ClientEstimateRevision: client prices, tax,
 * totals, deposit, terms; nothing of the studio's own), and the decision made on it, once there is one, in the
 * client's terms (who typed their name, when, the answers and accepted figures; not the verified address).
 */
export async function sharedRevision(ctx: Reader, share: LiveShare) {
  const revision = await readClientRevision(ctx.db, share.document.id, ctx.now);
  // A share names a revision of its own project, which is never deleted.
  if (!revision) throw new Error(`share ${share.shareId} names no revision`);
  const row = await ctx.db
    .selectFrom('estimate_decisions')
    .selectAll()
    .where('revision_id', '=', revision.revisionId)
    .executeTakeFirst();
  const d = row ? ESTIMATE_DECISION_RECORD.present(row as never, {}) : undefined;
  return {
    revision,
    decision: d
      ? {
          outcome: d.outcome,
          pieces: d.pieces,
          accepted: d.accepted,
          deposit: d.deposit,
          comment: d.comment,
          deciderName: d.deciderName,
          decidedAt: d.decidedAt,
        }
      : null,
  };
}
export type SharedRevision = Awaited<ReturnType<typeof sharedRevision>>;
