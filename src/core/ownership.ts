import type { Database } from '../../db/schema.js';
import type { AnyAction } from './define-action.js';
import type { Caller } from './context.js';
import type { RowReader } from '../../db/store.js';
import { ServiceError } from './errors.js';
import type { ResolvedRef } from './guards.js';
import { valuesAt } from './schema-marks.js';

const WHERE_OWNED = {
  project: 'in this project',
  studio: 'in your studio',
  member: 'among your own in this studio',
} as const;
const LEVEL_ORDER = { studio: 0, member: 0, project: 1 } as const;

/**
 * A record's row already on its way (an action's read ahead, ReadAhead.record): every column of its table, or nothing
 * when there is no such record. Its owner column is judged exactly as the check's own read would be.
 */
export interface KnownRecord {
  table: string;
  id: string;
  row: Promise<Record<string, unknown> | undefined>;
}

/**
 * Proves that every record the input names (every field marked `refTo`, at any depth) belongs where the request
 * says: a studio-level record to the caller's studio, a personal one to the caller, a project-level one to the
 * project in its `within` field (default `projectId`). A mismatch answers 404, never 403: another studio's records
 * do not exist for the caller. Each entity's own access rule (a project's grants) then runs for every reference to it.
 * Returns the records found and the project the request is about (its `projectId`).
 */
export async function resolveRefs(
  readRow: RowReader,
  caller: Caller,
  action: AnyAction,
  input: Record<string, unknown>,
  write: boolean,
  known?: KnownRecord,
): Promise<{ refs: ResolvedRef[]; project: Database['projects'] | undefined }> {
  const refs: ResolvedRef[] = [];
  let project: Database['projects'] | undefined;
  const sites = [...action.plan.refs].sort(
    (a, b) => LEVEL_ORDER[a.entity.owner.level] - LEVEL_ORDER[b.entity.owner.level],
  );
  // Every record named is read at once: the reads do not depend on each other, so on PostgreSQL they share one round
  // trip. They are then judged in the order above, so the first record that does not belong is the one reported.
  const reads = sites.flatMap((site) => {
    const { entity } = site;
    // Table and column names come from the entity's definition, never from input. The record an action checks the
    // version of is read with its version, so the check needs no second read.
    const columns = entity.wholeRow
      ? '*'
      : `id, ${entity.owner.column}${action.versioned?.entity === entity ? ', version' : ''}`;
    return idsAt(input, site.path)
      .filter((at): at is { id: string; holder: Record<string, unknown> | undefined } => typeof at.id === 'string')
      .map(({ id, holder }) => ({
        site,
        id,
        holder,
        row:
          known && known.table === entity.table && known.id === id && !entity.wholeRow
            ? known.row
            : readRow(`SELECT ${columns} FROM ${entity.table} WHERE id = ?`, id),
      }));
  });
  const rows = await Promise.all(reads.map((r) => r.row));
  for (const [i, { site, id, holder }] of reads.entries()) {
    const { entity } = site;
    const row = rows[i];
    // A project-level record's project: the `within` field of the object holding the reference when it has one
    // (`fromLine: { projectId, lineId }`), else the input's own.
    const within = site.within ?? 'projectId';
    const owner = row?.[entity.owner.column];
    const level = entity.owner.level;
    const owns =
      row !== undefined &&
      (level === 'studio'
        ? owner === caller.studioId
        : level === 'member'
          ? owner === caller.memberId
          : owner === (holder && within in holder ? holder[within] : input[within]));
    if (!owns) throw new ServiceError('NOT_FOUND', `No ${entity.name} ${id} exists ${WHERE_OWNED[level]}.`);
    refs.push({ field: site.path.join('.'), entity, id, row, reads: site.reads });
    // `projectId` names the project a request is about, in every action that has one (the seed's own name).
    if (site.path.length === 1 && site.path[0] === 'projectId') project = row as unknown as Database['projects'];
  }
  // Access rules (a project's grants) run once every id is known to belong: ids that do not belong together answer
  // 404 even to a caller whose view grant would refuse the write with 403, so the 403 reveals nothing.
  // A record the action only reads (a reference declared with `reads`) is asked about as a read, even in a write.
  for (const ref of refs) {
    await ref.entity.access?.({ caller, id: ref.id, row: ref.row, write: write && !ref.reads, queryRow: readRow });
  }
  return { refs, project };
}

/** The ids at a path, each with the object whose field holds it (none for the elements of a list or record). */
function idsAt(input: Record<string, unknown>, path: readonly string[]) {
  const last = path.at(-1);
  const found: Array<{ id: unknown; holder: Record<string, unknown> | undefined }> = [];
  if (last === undefined) return found;
  for (const parent of valuesAt(input, path.slice(0, -1))) {
    if (!parent || typeof parent !== 'object') continue;
    if (last === '*') for (const id of Object.values(parent)) found.push({ id, holder: undefined });
    else if (!Array.isArray(parent) && last in parent) {
      const holder = parent as Record<string, unknown>;
      found.push({ id: holder[last], holder });
    }
  }
  return found;
}
