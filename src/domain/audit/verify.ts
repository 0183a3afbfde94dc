import type { AuditEventsTable } from '../../../db/schema.js';
import { eventDigest, GENESIS_DIGEST } from '../../core/audit.js';
import type { ActionContext } from '../../core/context.js';

export interface ChainCheck {
  intact: boolean;
  eventsChecked: number;
  /** The first event whose digest or link does not verify; null when the chain is intact. */
  brokenAtSeq: number | null;
}

/**
 * Recomputes the studio's hash chain from its first event: each event must point at the digest of the one before and
 * carry the digest of its own fields. An edited, removed or reordered event breaks the chain from that event on.
 */
export function verifyAuditChain(ctx: Pick<ActionContext, 'statement' | 'studioId'>): ChainCheck {
  const rows = ctx
    .statement('SELECT * FROM audit_events WHERE studio_id = ? ORDER BY seq')
    .iterate(ctx.studioId) as IterableIterator<AuditEventsTable>;
  let prev = GENESIS_DIGEST;
  let expectedSeq = 1;
  let checked = 0;
  for (const r of rows) {
    checked += 1;
    const digest = eventDigest(prev, {
      id: r.id,
      studioId: r.studio_id,
      seq: r.seq,
      projectId: r.project_id,
      actorKind: r.actor_kind,
      actorId: r.actor_id,
      action: r.action,
      targetKind: r.target_kind,
      targetId: r.target_id,
      at: r.at,
      summary: r.summary,
      changes: r.changes,
    });
    if (r.seq !== expectedSeq || r.prev_digest !== prev || r.digest !== digest) {
      return { intact: false, eventsChecked: checked, brokenAtSeq: r.seq };
    }
    prev = r.digest;
    expectedSeq += 1;
  }
  return { intact: true, eventsChecked: checked, brokenAtSeq: null };
}
