import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Caller } from '../core/context.js';
import { defineEntity } from '../core/entities.js';
import { ServiceError } from '../core/errors.js';
import type { StudioPermission } from '../core/permissions.js';
import { grantedProjectIds, PROJECT } from '../domain/projects/entity.js';

/** How an operation the caller may not see answers: as if it did not exist, naming where to find the visible ones. */
export const operationNotVisible = (id: string) =>
  new ServiceError('NOT_FOUND', `No operation ${id} is visible to you; list_operations lists the ones you can see.`);

/**
 * An operation belongs to its studio, and to its project when it has one. Who may see one, the one rule for every
 * reference to it (get_operation_status, cancel_operation) and for list_operations (`visibleOperations`): a member
 * whose role may do the act that started it (its `scope`) and who reaches its project by the project's own rule: no
 * grant answers the project's 404, and a view grant reads it but cannot cancel it (403, a write to the project).
 * An operation of no project (an invitation's delivery) is seen by every role that may do its act.
 */
export const OPERATION = defineEntity({
  name: 'operation',
  table: 'operations',
  owner: { column: 'studio_id', level: 'studio' },
  async access(check) {
    const { caller, id, queryRow } = check;
    const op = await queryRow<{ scope: string; project_id: string | null }>(
      'SELECT scope, project_id FROM operations WHERE id = ?',
      id,
    );
    if (!op || !caller.permissions.has(op.scope as StudioPermission)) throw operationNotVisible(id);
    if (op.project_id === null) return;
    try {
      await PROJECT.access!({ ...check, id: op.project_id, row: { id: op.project_id } });
    } catch (err) {
      // The project's 404 names the project; the operation's names only the operation asked about.
      if (err instanceof ServiceError && err.code === 'NOT_FOUND') throw operationNotVisible(id);
      throw err;
    }
  },
});

/** `OPERATION`'s rule as a filter on a list of the caller's studio's operations. */
export function visibleOperations<O>(
  db: Kysely<Database>,
  qb: SelectQueryBuilder<Database, 'operations', O>,
  caller: Caller | null,
) {
  const scopes: string[] = [...(caller?.permissions ?? [])];
  let visible = qb.where('operations.scope', 'in', scopes.length ? scopes : ['none']);
  const projects = caller && grantedProjectIds(db, caller);
  if (projects) {
    visible = visible.where((eb) =>
      eb.or([eb('operations.project_id', 'is', null), eb('operations.project_id', 'in', projects)]),
    );
  }
  return visible;
}
