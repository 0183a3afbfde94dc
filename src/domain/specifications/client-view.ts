import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { SPECIFICATION_CLIENT_FIELDS, type SpecificationClientField } from '../../../db/vocabulary.js';
import { type PresentedSpecification, SPECIFICATION_RECORD } from './record.js';

/**
 * A specification as a client reads it on a piece: its name, and only the fields the studio marked client-visible
 * (clientFields) that hold something. It is built by copying those fields by name out of the presented record, so a
 * field the studio did not choose (its notes, a hidden SKU) has no way into a client document, page or PDF.
 */
export type ClientSpecification = { name: string } & {
  [K in SpecificationClientField]?: NonNullable<PresentedSpecification[K]>;
};

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

export function clientSpecification(s: PresentedSpecification): ClientSpecification {
  const shown: Record<string, unknown> = { name: s.name };
  // In the vocabulary's order, whatever order the studio chose them in: every piece reads alike.
  for (const field of SPECIFICATION_CLIENT_FIELDS) {
    if (s.clientFields.includes(field) && !isEmpty(s[field])) shown[field] = s[field];
  }
  return shown as ClientSpecification;
}

/** The client-visible specifications of each of a project's lines, in each line's order (archived ones too). */
export async function clientSpecificationsOfLines(
  db: Kysely<Database>,
  projectId: string,
): Promise<Map<string, ClientSpecification[]>> {
  const rows = await db
    .selectFrom('line_specifications as ls')
    .innerJoin('specifications as s', 's.id', 'ls.specification_id')
    .selectAll('s')
    .select('ls.line_id')
    .where('ls.project_id', '=', projectId)
    .orderBy('ls.line_id')
    .orderBy('ls.position')
    .execute();
  const byLine = new Map<string, ClientSpecification[]>();
  for (const { line_id, ...row } of rows) {
    const shown = clientSpecification(SPECIFICATION_RECORD.present(row, { lineCount: 0 }) as PresentedSpecification);
    byLine.set(line_id, [...(byLine.get(line_id) ?? []), shown]);
  }
  return byLine;
}
