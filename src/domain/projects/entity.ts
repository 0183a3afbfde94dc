import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Caller } from '../../core/context.js';
import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';
import { ServiceError } from '../../core/errors.js';
import { type GrantLevel, grantAllows, reachesAllProjects } from '../../core/permissions.js';

/** The caller's grant on a project (project id, member id): what PROJECT's access reads, and a line's read may answer. */
export const PROJECT_GRANT_READ = 'SELECT level FROM project_grants WHERE project_id = ? AND member_id = ?';

/**
 * A project: the studio's, and reachable only with a grant unless the caller manages the workspace. An ungranted
 * project answers 404 like another studio's (its existence is not revealed); a `view` grant used to write is 403.
 */
export const PROJECT = defineEntity({
  name: 'project',
  table: 'projects',
  owner: { column: 'studio_id', level: 'studio' },
  wholeRow: true,
  async access({ caller, id, write, queryRow }) {
    if (reachesAllProjects(caller.permissions)) return;
    const grant = await queryRow<{ level: GrantLevel }>(PROJECT_GRANT_READ, id, caller.memberId);
    if (!grant) throw new ServiceError('NOT_FOUND', `No project ${id} exists in your studio.`);
    if (!grantAllows(grant.level, write)) {
      throw new ServiceError(
        'FORBIDDEN',
        'You can view this project but not change it; ask a studio admin for an edit grant.',
      );
    }
  },
});

/**
 * The same rule as PROJECT's access, for a list: the ids of the projects a caller without workspace:manage reaches
 * (a subquery, whatever their number), or undefined when the caller reaches every project of the studio.
 */
export function grantedProjectIds(db: Kysely<Database>, caller: Caller) {
  if (reachesAllProjects(caller.permissions)) return undefined;
  return db.selectFrom('project_grants').select('project_grants.project_id').where('member_id', '=', caller.memberId);
}

/** The kind of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const PROJECT_AUDIT_KIND = auditKind('project');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    project: typeof PROJECT_AUDIT_KIND;
  }
}
