import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

/** The studio's code prefix with its dash, e.g. `FF-`. */
export async function codePrefix(db: Kysely<Database>, studioId: string): Promise<string> {
  const studio = await db
    .selectFrom('studios')
    .select('code_prefix')
    .where('id', '=', studioId)
    .executeTakeFirstOrThrow();
  return `${studio.code_prefix}-`;
}

/** `FF-` and 7 → `FF-007`: at least three digits, more when the schedule outgrows them. */
export const formatCode = (prefix: string, n: number) => `${prefix}${String(n).padStart(3, '0')}`;

/**
 * Hands out the project's next codes one after another: the studio's prefix and one more than the highest number used
 * so far (FF-001, FF-002 …). Reads the highest code once, so a request creating many lines (copy, paste) stays cheap.
 * Archived lines keep their codes, so a code is never reused.
 */
export async function codeAllocator(db: Kysely<Database>, studioId: string, projectId: string): Promise<() => string> {
  const prefix = await codePrefix(db, studioId);
  const codes = await db
    .selectFrom('lines')
    .select('code')
    .where('project_id', '=', projectId)
    .where('code', 'like', `${prefix}%`)
    .execute();
  let max = 0;
  for (const { code } of codes) {
    const n = Number.parseInt(code!.slice(prefix.length), 10);
    if (Number.isSafeInteger(n) && n > max) max = n;
  }
  return () => formatCode(prefix, ++max);
}

/** The next line code in a project (see `codeAllocator`). */
export async function nextCode(db: Kysely<Database>, studioId: string, projectId: string): Promise<string> {
  return (await codeAllocator(db, studioId, projectId))();
}
