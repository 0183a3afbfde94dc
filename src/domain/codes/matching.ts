import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CodeSchemeRow } from './record.js';
import { ServiceError } from '../../core/errors.js';

/**
 * Which code scheme a line takes, decided by the title of the section it is created in:
 *
 * - a scheme applies when its section-title keywords include one that the title contains, case-insensitively
 *   (keyword "Lighting" applies to "Lighting", "Garden lighting" and "LIGHTING & LAMPS");
 * - when several apply, the one with the longest matching keyword wins (the most specific), then the lower prefix;
 * - when none applies, the studio's default scheme does (studios.code_prefix mirrors its prefix).
 *
 * Only active schemes take part. A line keeps its code when it is moved or when schemes change afterwards;
 * renumber_schedule_lines applies the rule again to every active line.
 */
export interface SchemeChoice {
  /** The prefix without its hyphen, e.g. LT. */
  prefix: string;
  /** The scheme that applies; null only for a studio without schemes, which then numbers with studios.code_prefix. */
  scheme: CodeSchemeRow | null;
  /** The keyword of `scheme` the title contains; null when the default applies. */
  keyword: string | null;
}

export const keywordsOf = (row: Pick<CodeSchemeRow, 'keywords'>): string[] => JSON.parse(row.keywords) as string[];

/** The rule above over already loaded schemes, for a section title. */
export function chooseScheme(schemes: readonly CodeSchemeRow[], title: string, fallbackPrefix: string): SchemeChoice {
  const lowered = title.toLowerCase();
  let best: { scheme: CodeSchemeRow; keyword: string } | null = null;
  for (const scheme of schemes) {
    for (const keyword of keywordsOf(scheme)) {
      if (!lowered.includes(keyword.toLowerCase())) continue;
      const better =
        !best ||
        keyword.length > best.keyword.length ||
        (keyword.length === best.keyword.length && scheme.prefix < best.scheme.prefix);
      if (better) best = { scheme, keyword };
    }
  }
  if (best) return { prefix: best.scheme.prefix, scheme: best.scheme, keyword: best.keyword };
  const fallback = schemes.find((s) => s.is_default === 1) ?? null;
  return { prefix: fallback?.prefix ?? fallbackPrefix, scheme: fallback, keyword: null };
}

/** The studio's active schemes, read once, as a function of a section title (renumbering asks for many sections). */
export async function schemePicker(db: Kysely<Database>, studioId: string): Promise<(title: string) => SchemeChoice> {
  const schemes = await db
    .selectFrom('code_schemes')
    .selectAll()
    .where('studio_id', '=', studioId)
    .where('archived_at', 'is', null)
    .orderBy('prefix')
    .execute();
  // Every studio has a default scheme (migration 009, onboarding); studios.code_prefix is only a safety net.
  const fallback = schemes.some((s) => s.is_default === 1)
    ? ''
    : ((await db.selectFrom('studios').select('code_prefix').where('id', '=', studioId).executeTakeFirst())
        ?.code_prefix ?? 'FF');
  return (title) => chooseScheme(schemes, title, fallback);
}

/** The scheme a line created in this section takes. */
export async function schemeForSection(
  db: Kysely<Database>,
  studioId: string,
  sectionId: string,
): Promise<SchemeChoice> {
  const section = await db.selectFrom('sections').select('title').where('id', '=', sectionId).executeTakeFirst();
  if (!section) throw new ServiceError('NOT_FOUND', `No section ${sectionId} exists in this project.`);
  return (await schemePicker(db, studioId))(section.title);
}
