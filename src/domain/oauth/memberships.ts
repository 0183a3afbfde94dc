import type { Store } from '../../../db/store.js';
import type { Role } from '../../../db/vocabulary.js';

/** A studio a person can connect a client to: one of their active memberships. */
export interface Membership {
  memberId: string;
  studioId: string;
  studioName: string;
  role: Role;
}

/** The person's email and their active memberships, studios by name: the choices on the consent page. */
export async function membershipsOf(store: Store, userId: string): Promise<{ email: string; studios: Membership[] }> {
  const rows = await store.readDb
    .selectFrom('members as m')
    .innerJoin('studios as s', 's.id', 'm.studio_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.id as memberId', 's.id as studioId', 's.name as studioName', 'm.role as role', 'u.email as email'])
    .where('m.user_id', '=', userId)
    .where('m.removed_at', 'is', null)
    .orderBy('s.name')
    .orderBy('s.id')
    .execute();
  const email =
    rows[0]?.email ??
    (await store.readDb.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email ??
    '';
  return { email, studios: rows.map(({ email: _, ...m }) => m) };
}
