import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AUDIT_EVENT_RECORD, type AuditEventRow } from './record.js';
import type { AuditTargetKind } from '../../core/audit-kinds.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { reachesAllProjects } from '../../core/permissions.js';
import { keysetPage, keysetSort, namedSorts, type PageRequest, sortNames } from '../kit/keyset-page.js';

export function presentEvent(r: AuditEventRow, names: ReadonlyMap<string, string>) {
  const name = r.actor_kind === 'member' && r.actor_id ? (names.get(r.actor_id) ?? null) : null;
  return AUDIT_EVENT_RECORD.present(r, { actor: { kind: r.actor_kind, id: r.actor_id, name, via: r.actor_via } });
}

/**
 * The people behind a page of events, in one query: the member's current name (a renamed person reads under the name
 * the studio knows them by now; a removed member keeps theirs).
 */
async function actorNames(db: Kysely<Database>, studioId: string, rows: readonly AuditEventRow[]) {
  const ids = [...new Set(rows.flatMap((r) => (r.actor_kind === 'member' && r.actor_id ? [r.actor_id] : [])))];
  if (!ids.length) return new Map<string, string>();
  const found = await db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['members.id as id', 'users.name as name'])
    .where('members.studio_id', '=', studioId)
    .where('members.id', 'in', ids)
    .execute();
  return new Map(found.map((m) => [m.id, m.name]));
}

async function presentEvents(db: Kysely<Database>, studioId: string, rows: readonly AuditEventRow[]) {
  const names = await actorNames(db, studioId, rows);
  return rows.map((r) => presentEvent(r, names));
}

export interface EventQuery extends PageRequest {
  projectId?: string;
  targetId?: string;
  targetKind?: AuditTargetKind;
  action?: string;
  /** Only events by this member. */
  memberId?: string;
  /**
   * Limit the feed to projects the caller reaches: without workspace:manage a member sees only events of projects
   * granted to them (studio-level events included only for those who manage the workspace).
   */
  reachableOnly?: boolean;
  sort?: keyof typeof EVENT_SORTS;
}

const NEWEST_FIRST = keysetSort('audit', '-seq');
/** `at` is oldest first, `-at` newest first (the default): the feed's sequence is its time order. */
export const EVENT_SORTS = namedSorts({ at: { column: 'seq' } }, { column: 'id' });
export const EVENT_SORT_NAMES = sortNames(EVENT_SORTS);

/** Newest first unless `sort` says otherwise, 500 to a page like every list. Bounded by the caller's studio. */
export async function listEvents(ctx: ActionContext, q: EventQuery) {
  let qb = ctx.db.selectFrom('audit_events').selectAll().where('studio_id', '=', ctx.studioId);
  if (q.projectId) qb = qb.where('project_id', '=', q.projectId);
  if (q.targetId) qb = qb.where('target_id', '=', q.targetId);
  if (q.targetKind) qb = qb.where('target_kind', '=', q.targetKind);
  if (q.action) qb = qb.where('action', '=', q.action);
  if (q.memberId) qb = qb.where('actor_kind', '=', 'member').where('actor_id', '=', q.memberId);
  const caller = ctx.caller;
  if (q.reachableOnly && caller && !reachesAllProjects(caller.permissions)) {
    qb = qb.where(
      'project_id',
      'in',
      ctx.db.selectFrom('project_grants').select('project_id').where('member_id', '=', caller.memberId),
    );
  }
  const { rows, nextCursor } = await keysetPage(qb, q.sort ? EVENT_SORTS[q.sort] : NEWEST_FIRST, q);
  return { items: await presentEvents(ctx.db, ctx.studioId, rows), nextCursor };
}

/** One line's events (its creation, every edit, archival, moves …), newest first. */
export function listLineEvents(
  ctx: ActionContext,
  q: { projectId: string; lineId: string; cursor?: string; limit?: number; sort?: keyof typeof EVENT_SORTS },
) {
  return listEvents(ctx, {
    projectId: q.projectId,
    targetKind: 'line',
    targetId: q.lineId,
    cursor: q.cursor,
    limit: q.limit,
    sort: q.sort,
  });
}

export async function getEvent(db: Kysely<Database>, studioId: string, eventId: string) {
  const r = await db
    .selectFrom('audit_events')
    .selectAll()
    .where('id', '=', eventId)
    .where('studio_id', '=', studioId)
    .executeTakeFirst();
  if (!r) throw new ServiceError('NOT_FOUND', `No audit event ${eventId} exists in your studio.`);
  const [event] = await presentEvents(db, studioId, [r]);
  return event!;
}

/** One event, if the caller reaches its project (the same rule as the studio feed); otherwise it does not exist for them. */
export async function getReachableEvent(ctx: ActionContext, eventId: string) {
  const event = await getEvent(ctx.db, ctx.studioId, eventId);
  const caller = ctx.caller!;
  if (!reachesAllProjects(caller.permissions)) {
    const grant = event.projectId
      ? await ctx.db
          .selectFrom('project_grants')
          .select('level')
          .where('project_id', '=', event.projectId)
          .where('member_id', '=', caller.memberId)
          .executeTakeFirst()
      : undefined;
    if (!grant) throw new ServiceError('NOT_FOUND', `No audit event ${eventId} exists in your studio.`);
  }
  return event;
}
