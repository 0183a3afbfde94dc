import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { dialectOf } from '../../../db/store.js';
import { schemeForSection } from '../codes/matching.js';

/**
 * The prefix with its dash of the code scheme a line created in this section takes, e.g. `FF-` or `LT-` (the rule is
 * in src/domain/codes/matching.ts: a section whose title contains a scheme's keyword takes it, otherwise the default).
 */
export async function codePrefix(db: Kysely<Database>, studioId: string, sectionId: string): Promise<string> {
  return `${(await schemeForSection(db, studioId, sectionId)).prefix}-`;
}

/** `FF-` and 7 → `FF-007`: at least three digits, more when the schedule outgrows them. */
export const formatCode = (prefix: string, n: number) => `${prefix}${String(n).padStart(3, '0')}`;

/**
 * Hands out the project's next codes one after another: the prefix of the code scheme the target section takes and one
 * more than the highest number used so far with that prefix (FF-001, FF-002 …; LT-001 … in a Lighting section).
 * Archived lines keep their codes, so a code is never reused; codes set by hand with the prefix and a number count
 * too. Read once per request, so a request creating many lines stays cheap.
 */
export async function codeAllocator(
  db: Kysely<Database>,
  studioId: string,
  projectId: string,
  sectionId: string,
): Promise<() => string> {
  return prefixAllocator(db, projectId, await codePrefix(db, studioId, sectionId));
}

/**
 * The next codes with one prefix (with its dash) in a project. The highest is one index seek (lines_by_project_code:
 * among codes that are the prefix and digits only, without the leading zeros a longer code would need to sort wrongly,
 * the longest, then the greatest). SQLite matches with GLOB; PostgreSQL with a regular expression, ordering by bytes
 * as its index does.
 */
export async function prefixAllocator(db: Kysely<Database>, projectId: string, prefix: string): Promise<() => string> {
  const highest =
    dialectOf(db) === 'postgres'
      ? await sql<{ code: string }>`
    SELECT code FROM lines
    WHERE project_id = ${projectId} AND code ~ ${`^${regexEscape(prefix)}[0-9]+$`}
      AND NOT (length(code) > ${prefix.length + 3} AND substr(code, ${prefix.length + 1}, 1) = '0')
    ORDER BY length(code) DESC, code COLLATE "C" DESC LIMIT 1`.execute(db)
      : await sql<{ code: string }>`
    SELECT code FROM lines
    WHERE project_id = ${projectId} AND code GLOB ${`${globEscape(prefix)}[0-9]*`}
      AND substr(code, ${prefix.length + 1}) NOT GLOB '*[^0-9]*'
      AND NOT (length(code) > ${prefix.length + 3} AND substr(code, ${prefix.length + 1}, 1) = '0')
    ORDER BY length(code) DESC, code DESC LIMIT 1`.execute(db);
  const top = highest.rows[0]?.code;
  let max = top === undefined ? 0 : Number(top.slice(prefix.length));
  if (!Number.isSafeInteger(max)) max = 0;
  return () => formatCode(prefix, ++max);
}

/** A prefix taken literally in a GLOB pattern (`*`, `?` and `[` are GLOB's own). */
const globEscape = (text: string) => text.replace(/[*?[]/g, (c) => `[${c}]`);
/** A prefix taken literally in a POSIX regular expression. */
const regexEscape = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);

/** The next line code in a project for a line in this section (see `codeAllocator`). */
export async function nextCode(
  db: Kysely<Database>,
  studioId: string,
  projectId: string,
  sectionId: string,
): Promise<string> {
  return (await codeAllocator(db, studioId, projectId, sectionId))();
}
