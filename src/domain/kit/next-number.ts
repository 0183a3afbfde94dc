import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

/** The next number of a project's document (an estimate, a purchase order): 1, then one more than the last. */
export async function nextNumberInProject(
  db: Kysely<Database>,
  table: 'estimates' | 'purchase_orders',
  projectId: string,
) {
  const last = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('number').as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return Number(last?.n ?? 0) + 1;
}
