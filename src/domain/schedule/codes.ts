import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

/**
 * The next line code in a project: the studio's prefix and one more than the highest number used so far,
 * zero-padded to three digits (FF-001, FF-002 …). Archived lines keep their codes, so a code is never reused.
 */
export async function nextCode(db: Kysely<Database>, studioId: string, projectId: string): Promise<string> {
  const studio = await db.selectFrom('studios').select('code_prefix').where('id', '=', studioId).executeTakeFirstOrThrow();
  const prefix = `${studio.code_prefix}-`;
  const codes = await db.selectFrom('lines').select('code').where('project_id', '=', projectId).where('code', 'like', `${prefix}%`).execute();
  let max = 0;
  for (const { code } of codes) {
    const n = Number.parseInt(code!.slice(prefix.length), 10);
    if (Number.isSafeInteger(n) && n > max) max = n;
  }
  return `${prefix}${String(max + 1).padStart(3, '0')}`;
}
