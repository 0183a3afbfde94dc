import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { compiledShape } from '../../../db/compiled-shape.js';

/** A specification as a line lists it: enough to name it and read it whole with get_specification. */
export interface LineSpecification {
  id: string;
  name: string;
  /** 1-based, the order the line shows its specifications in. */
  position: number;
  /** Archived in the library: it stays on the lines that have it, but no line can newly take it. */
  archived: boolean;
}

type SpecificationRow = {
  line_id: string;
  specification_id: string;
  position: number;
  name: string;
  archived_at: string | null;
};

/** Up to this many lines are read by the attachments' primary key; more, by their project's index. */
const NAMED_LINES = 50;

/** The specifications attached to each of these lines of one project, in their order (every id is in the map). */
export async function specificationsOfLines(
  db: Kysely<Database>,
  projectId: string,
  lineIds: readonly string[],
): Promise<Map<string, LineSpecification[]>> {
  const byLine = new Map<string, LineSpecification[]>(lineIds.map((id) => [id, []]));
  if (!lineIds.length) return byLine;
  // Every line read asks this (a GET of one line too): the statement is built and compiled once per shape.
  const named = lineIds.length <= NAMED_LINES;
  const compile = () => {
    const query = db
      .selectFrom('line_specifications as ls')
      .innerJoin('specifications as s', 's.id', 'ls.specification_id')
      .select(['ls.line_id', 'ls.specification_id', 'ls.position', 's.name', 's.archived_at']);
    return (named ? query.where('ls.line_id', 'in', lineIds) : query.where('ls.project_id', '=', projectId))
      .orderBy('ls.line_id')
      .orderBy('ls.position')
      .compile();
  };
  const shape = `line-specifications\u0000${named ? lineIds.length : 'project'}`;
  const { rows } = await db.executeQuery<SpecificationRow>(
    compiledShape(db, shape, named ? lineIds : [projectId], compile),
  );
  for (const r of rows) {
    byLine.get(r.line_id)?.push({
      id: r.specification_id,
      name: r.name,
      position: Number(r.position),
      archived: r.archived_at !== null,
    });
  }
  return byLine;
}

/** Gives a new line the specifications of the line it was made from, in the same order (a duplicated line). */
export async function copySpecifications(
  db: Kysely<Database>,
  fromLineId: string,
  to: { id: string; project_id: string },
  now: string,
) {
  await db
    .insertInto('line_specifications')
    .columns(['line_id', 'specification_id', 'project_id', 'position', 'attached_at'])
    .expression((eb) =>
      eb
        .selectFrom('line_specifications')
        .select((e) => [
          e.val(to.id).as('line_id'),
          'specification_id',
          e.val(to.project_id).as('project_id'),
          'position',
          e.val(now).as('attached_at'),
        ])
        .where('line_id', '=', fromLineId),
    )
    .execute();
}
