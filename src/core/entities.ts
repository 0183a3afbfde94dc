import type { RowReader } from '../../db/store.js';
import type { Caller } from './context.js';

/** One record an input names, found and owned by the caller's studio, for an entity's own access rule. */
export interface EntityAccess {
  caller: Caller;
  id: string;
  row: Record<string, unknown>;
  /** Whether the action writes. */
  write: boolean;
  /** A raw one-row read on the request's connection. */
  queryRow: RowReader;
}

/**
 * A kind of record an input may name by id, and where it belongs. Each domain defines its own entities and marks the
 * fields that name them with `refTo(…, entity)`: `invoke` proves every such id belongs to the project (or studio, or
 * caller) the request is about, and reads versions for expected-version checks. Nothing in core names an entity.
 */
export interface Entity {
  /** How errors name it: `No line 01… exists in this project.` */
  name: string;
  table: string;
  /**
   * The column naming the owner: a project for project-level records, the studio for studio-level ones, the caller's
   * own membership for personal records (API tokens): someone else's answers as if it did not exist.
   */
  owner: { column: string; level: 'project' | 'studio' | 'member' };
  /** A further rule for every reference to a record of this kind (a project's grants); throws to refuse. */
  access?: (check: EntityAccess) => Promise<void>;
  /**
   * Whether guards and handlers need the whole row of a referenced record (a project: its archival, ctx.project).
   * Otherwise only its owner is read: this check runs on every request, so it reads no more than it must.
   */
  wholeRow?: true;
}

const ENTITIES = new Map<string, Entity>();

/** Defines an entity once; a second definition under the same name is a mistake, refused at start-up. */
export function defineEntity(entity: Entity): Entity {
  if (ENTITIES.has(entity.name)) throw new Error(`Entity ${entity.name} is defined twice.`);
  ENTITIES.set(entity.name, entity);
  return entity;
}

export const definedEntities = (): readonly Entity[] => [...ENTITIES.values()];
