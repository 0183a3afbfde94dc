import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { namedSorts, sortNames } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery } from '../kit/listing.js';
import { z } from 'zod';
import { containsText } from '../kit/text-search.js';
import { MEMBER_RECORD, type MemberRow, Role } from './record.js';

/** A membership with its person's name and address, as one read gives it. */
export type MemberRecord = MemberRow & { name: string; email: string };

export type MemberState = 'active' | 'removed';

/** Memberships with their person, in one statement. */
export function memberRecords(db: Kysely<Database>) {
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select([
      'members.id as id',
      'members.studio_id as studio_id',
      'members.user_id as user_id',
      'members.role as role',
      'members.created_at as created_at',
      'members.removed_at as removed_at',
      'users.name as name',
      'users.email as email',
    ]);
}

/** A member as the API shows it (declared in record.ts); `you` marks the caller's own membership. */
export function presentMember(row: MemberRecord, callerMemberId: string | undefined) {
  return MEMBER_RECORD.present(row, {
    name: row.name,
    email: row.email,
    state: row.removed_at ? 'removed' : 'active',
    you: row.id === callerMemberId,
  });
}
export type PresentedMember = ReturnType<typeof presentMember>;

/** A member of the caller's studio (ownership has proved it belongs), removed or not. */
export async function loadMember(db: Kysely<Database>, studioId: string, memberId: string): Promise<MemberRecord> {
  const row = await memberRecords(db)
    .where('members.id', '=', memberId)
    .where('members.studio_id', '=', studioId)
    .executeTakeFirst();
  if (!row)
    throw new ServiceError('NOT_FOUND', `No member ${memberId} exists in your studio; list_studio_members lists them.`);
  return row;
}

/** A member who has not been removed; a removed one answers NOT_FOUND, saying so. */
export async function loadActiveMember(db: Kysely<Database>, studioId: string, memberId: string) {
  const row = await loadMember(db, studioId, memberId);
  if (row.removed_at) {
    throw new ServiceError(
      'NOT_FOUND',
      `Member ${memberId} (${row.name}) was removed from the studio on ${row.removed_at.slice(0, 10)}; invite them again to bring them back.`,
    );
  }
  return row;
}

export const MEMBER_SORTS = namedSorts(
  {
    name: { column: 'users.name' },
    email: { column: 'users.email' },
    memberSince: { column: 'members.created_at', field: 'created_at' },
  },
  { column: 'members.id', field: 'id' },
);
export const MEMBER_SORT_NAMES = sortNames(MEMBER_SORTS);

export const MEMBER_LISTING = defineListing({
  filters: {
    state: z.enum(['active', 'removed', 'any']).optional().describe('Default active.'),
    role: Role.optional().describe('Only members with this role.'),
    q: z.string().trim().min(1).max(200).optional().describe('Text in the name or email, any case.'),
  },
  sorts: MEMBER_SORTS,
  defaultSort: 'name',
});

/** The studio's members, active ones by default, by name unless `sort` says otherwise. */
export async function listMembers(ctx: ActionContext, query: ListingQuery<typeof MEMBER_LISTING>) {
  let qb = memberRecords(ctx.db).where('members.studio_id', '=', ctx.studioId);
  const state = query.state ?? 'active';
  if (state !== 'any') qb = qb.where('members.removed_at', state === 'active' ? 'is' : 'is not', null);
  if (query.role) qb = qb.where('members.role', '=', query.role);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) => eb.or(containsText(['users.name', 'users.email'], q)));
  }
  const { rows, nextCursor } = await MEMBER_LISTING.page(qb, query);
  return { items: rows.map((r) => presentMember(r, ctx.caller?.memberId)), nextCursor };
}

export async function getMember(ctx: ActionContext, memberId: string) {
  return presentMember(await loadMember(ctx.db, ctx.studioId, memberId), ctx.caller?.memberId);
}

/** The studios a person belongs to now, by name: what a signed-in page (or the OAuth consent page) offers them. */
export async function membershipsOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('members')
    .innerJoin('studios', 'studios.id', 'members.studio_id')
    .select(['members.id as memberId', 'studios.id as studioId', 'studios.name as studioName', 'members.role'])
    .where('members.user_id', '=', userId)
    .where('members.removed_at', 'is', null)
    .orderBy('studios.name')
    .orderBy('studios.id')
    .execute();
}
