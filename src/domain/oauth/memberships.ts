import type { Store } from '../../../db/store.js';
import type { Role } from '../../../db/vocabulary.js';
import { membershipsOf as studiosOf } from '../members/members.js';

/** A studio a person can connect a client to: one of their active memberships. */
export interface Membership {
  memberId: string;
  studioId: string;
  studioName: string;
  role: Role;
}

/**
 * The person's email and their active memberships, studios by name (the same list `/login` shows): the choices on the
 * consent page, read again when the person decides, so a membership removed meanwhile is no choice.
 */
export async function membershipsOf(store: Store, userId: string): Promise<{ email: string; studios: Membership[] }> {
  const studios = await studiosOf(store.readDb, userId);
  const user = await store.readDb.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return { email: user?.email ?? '', studios };
}
