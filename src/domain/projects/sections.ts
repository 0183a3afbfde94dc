import type { Kysely } from 'kysely';
import type { Database, SectionsTable } from '../../../db/schema.js';

export function presentSection(row: SectionsTable, lineCount: number) {
  return {
    id: row.id,
    projectId: row.project_id,
    title: row.title,
    position: row.position,
    lineCount,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archived_at: row.archived_at,
  };
}

/** A project's sections in order, each with its count of active lines. */
export async function listSections(db: Kysely<Database>, projectId: string, includeArchived: boolean) {
  let qb = db
    .selectFrom('sections')
    .selectAll('sections')
    .select((eb) =>
      eb.selectFrom('lines').select((e) => e.fn.countAll<number>().as('n')).whereRef('lines.section_id', '=', 'sections.id').where('lines.archived_at', 'is', null).as('line_count'),
    )
    .where('sections.project_id', '=', projectId);
  if (!includeArchived) qb = qb.where('sections.archived_at', 'is', null);
  const rows = await qb.orderBy('sections.position').orderBy('sections.id').execute();
  return rows.map(({ line_count, ...r }) => presentSection(r, Number(line_count ?? 0)));
}
