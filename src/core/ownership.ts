import type { Database } from '../../db/schema.js';
import type { AnyAction } from './define-action.js';
import type { Caller } from './context.js';
import type { RowReader } from '../../db/store.js';
import { ServiceError } from './errors.js';
import type { ResolvedRef } from './guards.js';
import type { Entity } from './entities.js';
import type { RefSite } from './action-plan.js';
import { valuesAt } from './schema-marks.js';

const WHERE_OWNED = {
  project: 'in this project',
  studio: 'in your studio',
  member: 'among your own in this studio',
} as const;
const LEVEL_ORDER = { studio: 0, member: 0, project: 1 } as const;

/**
 * A record's row already on its way (an action's read ahead, ReadAhead.record): every column of its table, or nothing
 * when there is no such record. Its owner column is judged exactly as the check's own read would be. With `ownerFrom`,
 * the row is another record's (the line that names this project) and carries this record's owner in that column,
 * for the record its `via` column names (then no `id` is given).
 */
export interface KnownRecord {
  table: string;
  id?: string;
  row: Promise<Record<string, unknown> | undefined>;
  ownerFrom?: { column: string; via: string };
}

/** A reference site as every request of an action checks it, with the statement that reads it (made once). */
interface CompiledSite {
  site: RefSite;
  sql: string;
  /** The site's path as refs name it (`fromLine.lineId`). */
  field: string;
  /** The input's own field that holds the id, when the site is one top-level field (the usual `projectId`). */
  top: string | undefined;
}

const compiled = new WeakMap<AnyAction, readonly CompiledSite[]>();

/**
 * An action's reference sites in the order they are judged (studio- and member-level records before project-level
 * ones), each with its read: table and column names come from the entity's definition, never from input. The record
 * an action checks the version of is read with its version, so the check needs no second read.
 */
function sitesOf(action: AnyAction): readonly CompiledSite[] {
  let sites = compiled.get(action);
  if (sites) return sites;
  sites = [...action.plan.refs]
    .sort((a, b) => LEVEL_ORDER[a.entity.owner.level] - LEVEL_ORDER[b.entity.owner.level])
    .map((site) => {
      const { entity } = site;
      const columns = entity.wholeRow
        ? '*'
        : `id, ${entity.owner.column}${action.versioned?.entity === entity ? ', version' : ''}`;
      const top = site.path.length === 1 && site.path[0] !== '*' ? site.path[0] : undefined;
      return { site, sql: `SELECT ${columns} FROM ${entity.table} WHERE id = ?`, field: site.path.join('.'), top };
    });
  compiled.set(action, sites);
  return sites;
}

/** The row a known record stands in for, or undefined when it cannot (the check then reads the record itself). */
function knownRow(action: AnyAction, entity: Entity, id: string, known: readonly KnownRecord[]) {
  const k = known.find((r) => r.table === entity.table && (r.id === id || (r.id === undefined && r.ownerFrom)));
  if (!k) return undefined;
  if (!k.ownerFrom) return entity.wholeRow ? undefined : { row: k.row, ownerOnly: false };
  // Guards are given the project's whole row: an action with guards has its records read whole.
  if (action.guards?.length) return undefined;
  const { column, via } = k.ownerFrom;
  return {
    ownerOnly: true,
    row: k.row.then((r) => (r && r[via] === id ? { id, [entity.owner.column]: r[column] } : undefined)),
  };
}

/**
 * Proves that every record the input names (every field marked `refTo`, at any depth) belongs where the request
 * says: a studio-level record to the caller's studio, a personal one to the caller, a project-level one to the
 * project in its `within` field (default `projectId`). A mismatch answers 404, never 403: another studio's records
 * do not exist for the caller. Each entity's own access rule (a project's grants) then runs for every reference to it.
 * Returns the records found and the project the request is about (its `projectId`; none when only its owner was known).
 */
export async function resolveRefs(
  readRow: RowReader,
  caller: Caller,
  action: AnyAction,
  input: Record<string, unknown>,
  write: boolean,
  known: readonly KnownRecord[] = [],
): Promise<{ refs: ResolvedRef[]; project: Database['projects'] | undefined }> {
  const refs: ResolvedRef[] = [];
  let project: Database['projects'] | undefined;
  // Every record named is read at once: the reads do not depend on each other, so on PostgreSQL they share one round
  // trip. They are then judged in the order above, so the first record that does not belong is the one reported.
  const reads: Array<{
    site: CompiledSite;
    id: string;
    holder: Record<string, unknown> | undefined;
    ownerOnly: boolean;
  }> = [];
  const pending: Array<Promise<Record<string, unknown> | undefined>> = [];
  const read = (site: CompiledSite, id: unknown, holder: Record<string, unknown> | undefined) => {
    if (typeof id !== 'string') return;
    const fromKnown = knownRow(action, site.site.entity, id, known);
    reads.push({ site, id, holder, ownerOnly: fromKnown?.ownerOnly === true });
    pending.push(fromKnown ? fromKnown.row : readRow(site.sql, id));
  };
  for (const site of sitesOf(action)) {
    // A top-level field (nearly every site) is read straight from the input, without walking a path.
    if (site.top !== undefined) read(site, input[site.top], input);
    else for (const { id, holder } of idsAt(input, site.site.path)) read(site, id, holder);
  }
  const rows = pending.length === 1 ? [await pending[0]] : await Promise.all(pending);
  for (let i = 0; i < reads.length; i++) {
    const { site: compiledSite, id, holder, ownerOnly } = reads[i]!;
    const { site } = compiledSite;
    const { entity } = site;
    // A record known by its owner alone, that the row does not vouch for, is read as any other.
    const row = rows[i] ?? (ownerOnly ? await readRow(compiledSite.sql, id) : undefined);
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
    refs.push({ field: compiledSite.field, entity, id, row, reads: site.reads });
    // `projectId` names the project a request is about, in every action that has one (the seed's own name).
    const whole = !ownerOnly || rows[i] === undefined;
    if (whole && site.path.length === 1 && site.path[0] === 'projectId')
      project = row as unknown as Database['projects'];
  }
  // Access rules (a project's grants) run once every id is known to belong: ids that do not belong together answer
  // 404 even to a caller whose view grant would refuse the write with 403, so the 403 reveals nothing.
  // A record the action only reads (a reference declared with `reads`) is asked about as a read, even in a write.
  for (const ref of refs) {
    if (ref.entity.access) {
      await ref.entity.access({ caller, id: ref.id, row: ref.row, write: write && !ref.reads, queryRow: readRow });
    }
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
