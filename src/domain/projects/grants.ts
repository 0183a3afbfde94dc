import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { UserRow } from '../people/users.js';
import { PROJECT_GRANT_RECORD, type ProjectGrantRow } from './grant-record.js';
import type { MemberRow } from '../members/record.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import type { GrantLevel } from '../../core/permissions.js';
import { keysetSort, namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, projectScope } from '../kit/listing.js';

/**
 * Project grants: which members without workspace:manage reach a project, and whether they may change it (`edit`) or
 * only read it (`view`). A grant is access, not a record of the schedule: revoking removes it, and the audit feed
 * keeps the history. Grants carry no version; their writes are idempotent in effect (set a level, remove).
 */
type GrantRow = ProjectGrantRow & Pick<UserRow, 'name'> & Pick<MemberRow, 'role'>;

/** A grant as the API shows it (declared in grant-record.ts), with its member's name and role. */
const present = (row: GrantRow) => PROJECT_GRANT_RECORD.present(row, { memberName: row.name, memberRole: row.role });

/** Grants of current members only: a removed member's grant reaches nothing and is not shown. */
function grants(db: Kysely<Database>, projectId: string) {
  return db
    .selectFrom('project_grants')
    .innerJoin('members', 'members.id', 'project_grants.member_id')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select([
      'project_grants.project_id',
      'project_grants.member_id',
      'project_grants.level',
      'project_grants.created_at',
      'users.name',
      'members.role',
    ])
    .where('project_grants.project_id', '=', projectId)
    .where('members.removed_at', 'is', null);
}

const BY_MEMBER = keysetSort('grants', 'project_grants.member_id');
/** The orders a grant list may ask for; without one it is by member. */
export const GRANT_SORTS = namedSorts(
  { createdAt: { column: 'project_grants.created_at' }, level: { column: 'project_grants.level' } },
  { column: 'project_grants.member_id' },
);

export const GRANT_LISTING = defineListing({
  filters: projectScope,
  sorts: GRANT_SORTS,
  defaultSort: BY_MEMBER,
  defaultSays: 'by member',
});

export async function listGrants(ctx: ActionContext, q: ListingQuery<typeof GRANT_LISTING>) {
  const { rows, nextCursor } = await GRANT_LISTING.page(grants(ctx.db, q.projectId), q);
  return { items: rows.map(present), nextCursor };
}

async function findGrant(db: Kysely<Database>, projectId: string, memberId: string) {
  return grants(db, projectId).where('project_grants.member_id', '=', memberId).executeTakeFirst();
}

/** `invoke` proved the member is of this studio; a removed member is treated as absent. */
async function assertCurrentMember(db: Kysely<Database>, memberId: string) {
  const m = await db.selectFrom('members').select('removed_at').where('id', '=', memberId).executeTakeFirst();
  if (!m || m.removed_at) throw new ServiceError('NOT_FOUND', `No member ${memberId} exists in your studio.`);
}

export async function grantAccess(ctx: ActionContext, projectId: string, memberId: string, level: GrantLevel) {
  await assertCurrentMember(ctx.db, memberId);
  const existing = await findGrant(ctx.db, projectId, memberId);
  if (existing) {
    throw new ServiceError(
      'GRANT_EXISTS',
      `This member already has ${existing.level} access to the project; change it with update_project_grant.`,
      {
        extra: { level: existing.level },
      },
    );
  }
  await ctx.db
    .insertInto('project_grants')
    .values(PROJECT_GRANT_RECORD.newRow({ memberId, level }, { ownerId: projectId, now: ctx.now }))
    .execute();
  const row = (await findGrant(ctx.db, projectId, memberId))!;
  ctx.audit({
    targetKind: 'member',
    targetId: memberId,
    projectId,
    summary: `Granted ${row.name} ${level} access`,
    changes: { level: { from: null, to: level } },
  });
  return present(row);
}

async function loadGrant(db: Kysely<Database>, projectId: string, memberId: string) {
  const row = await findGrant(db, projectId, memberId);
  if (!row)
    throw new ServiceError(
      'NOT_FOUND',
      `Member ${memberId} has no grant on this project; give one with grant_project_access.`,
    );
  return row;
}

export async function updateGrant(ctx: ActionContext, projectId: string, memberId: string, level: GrantLevel) {
  const before = await loadGrant(ctx.db, projectId, memberId);
  if (before.level !== level) {
    await ctx.db
      .updateTable('project_grants')
      .set({ level })
      .where('project_id', '=', projectId)
      .where('member_id', '=', memberId)
      .execute();
  }
  ctx.audit({
    targetKind: 'member',
    targetId: memberId,
    projectId,
    summary: `Set ${before.name}'s access to ${level}`,
    changes: before.level === level ? {} : { level: { from: before.level, to: level } },
  });
  return present({ ...before, level });
}

export async function revokeGrant(ctx: ActionContext, projectId: string, memberId: string) {
  const before = await loadGrant(ctx.db, projectId, memberId);
  await ctx.db
    .deleteFrom('project_grants')
    .where('project_id', '=', projectId)
    .where('member_id', '=', memberId)
    .execute();
  ctx.audit({
    targetKind: 'member',
    targetId: memberId,
    projectId,
    summary: `Revoked ${before.name}'s access`,
    changes: { level: { from: before.level, to: null } },
  });
  return { ...present(before), revokedAt: ctx.now };
}
