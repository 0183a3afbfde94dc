import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';

/** The tables whose rows have an id and belong to one project. */
export type ProjectTable = {
  [T in keyof Database]: Selectable<Database[T]> extends { id: string; project_id: string } ? T : never;
}[keyof Database];

/**
 * A project's record by its id, or undefined when there is none in that project. Read by the primary key alone and
 * its project compared here: PostgreSQL, asked for `id = ? AND project_id = ?` on a table it has no statistics for
 * yet (a new database, a table just filled), may walk the project's index and filter every record of the project
 * instead of taking the key (see LINE_SHOWN in domain/schedule/lines.ts, where it cost 200 µs a read).
 */
export async function inProject<T extends ProjectTable>(
  db: Kysely<Database>,
  table: T,
  projectId: string,
  id: string,
): Promise<Selectable<Database[T]> | undefined> {
  // The generic table defeats the query builder's column inference; every ProjectTable has these columns.
  const any = db as unknown as Kysely<Record<string, { id: string; project_id: string }>>;
  const row = await any
    .selectFrom(table as string)
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.project_id === projectId ? (row as Selectable<Database[T]>) : undefined;
}
