import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { newId } from '../../core/ids.js';
import { namedSorts, sortNames } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import { refTo } from '../../core/schema-marks.js';
import { Id } from '../../core/values.js';
import { SHARE } from './entity.js';
import { memberName } from './members.js';
import { SHARE_REVOCATION_RECORD, type ShareRevocationRow } from './record.js';
import { loadShare } from './shares.js';

type RevocationRecord = ShareRevocationRow & { revoker_name: string };

/** A revocation as the API shows it (declared in record.ts), with the revoking member's name. */
export function presentRevocation(row: RevocationRecord) {
  return SHARE_REVOCATION_RECORD.present(row, { revokedBy: { memberId: row.revoked_by, name: row.revoker_name } });
}

function revocationRecords(db: Kysely<Database>) {
  return db
    .selectFrom('share_revocations')
    .innerJoin('members', 'members.id', 'share_revocations.revoked_by')
    .innerJoin('users', 'users.id', 'members.user_id')
    .selectAll('share_revocations')
    .select('users.name as revoker_name');
}

export const REVOCATION_SORTS = namedSorts(
  { revokedAt: { column: 'share_revocations.revoked_at' } },
  { column: 'share_revocations.id' },
);
export const REVOCATION_SORT_NAMES = sortNames(REVOCATION_SORTS);

export const REVOCATION_LISTING = defineListing({
  filters: { ...projectScope, shareId: refTo(Id, SHARE).optional().describe("Only this share's revocation.") },
  sorts: REVOCATION_SORTS,
  defaultSort: '-revokedAt',
  defaultSays: '-revokedAt (newest first)',
});

/** A project's revocation records (or one share's), newest first unless `sort` says otherwise. */
export async function listRevocations(ctx: ActionContext, q: ListingQuery<typeof REVOCATION_LISTING>) {
  let qb = revocationRecords(ctx.db).where('share_revocations.project_id', '=', q.projectId);
  if (q.shareId) qb = qb.where('share_revocations.share_id', '=', q.shareId);
  const { rows, nextCursor } = await REVOCATION_LISTING.page(qb, q);
  return { items: rows.map(presentRevocation), nextCursor };
}

/**
 * Appends the share's revocation: its link stops working at once. A share is revoked at most once: revoking it again
 * answers the first revocation (its time, who and why) and changes nothing, so a retry with a new key is harmless.
 */
export async function revokeShare(ctx: ActionContext, projectId: string, shareId: string, reason?: string) {
  const share = await loadShare(ctx, projectId, shareId);
  const existing = await revocationRecords(ctx.db).where('share_revocations.share_id', '=', shareId).executeTakeFirst();
  if (existing) {
    ctx.unchanged();
    return presentRevocation(existing);
  }
  const caller = ctx.caller!;
  const row = SHARE_REVOCATION_RECORD.newRow(
    { shareId, revoker: caller.memberId, reason: reason ?? null },
    { id: newId(), ownerId: projectId, now: ctx.now },
  );
  await ctx.db.insertInto('share_revocations').values(row).execute();
  ctx.audit({
    targetKind: 'share',
    targetId: shareId,
    projectId,
    summary: `Revoked share …${share.token_hint}${reason ? `: ${reason}` : ''}`,
    changes: { revokedAt: { from: null, to: ctx.now }, ...(reason ? { reason: { from: null, to: reason } } : {}) },
  });
  return presentRevocation({ ...row, revoker_name: await memberName(ctx, caller.memberId) });
}
