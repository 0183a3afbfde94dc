import { z } from 'zod';
import { GRANT_LEVELS } from '../../core/permissions.js';
import { Id, named } from '../../core/values.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';

export const GrantLevel = z.enum(GRANT_LEVELS).describe('view: read the project; edit: read and change it.');
named(GrantLevel, 'GrantLevel');

/**
 * A member's access to one project: named by its project and member (no id of its own), without a version, and
 * removed outright when revoked (a grant is access, not a record of the schedule; the audit feed keeps the history).
 * The member's name and role are read beside it.
 */
export const PROJECT_GRANT_RECORD = defineRecord({
  name: 'ProjectGrant',
  description: "A member's access to one project.",
  table: 'project_grants',
  owner: 'project',
  id: false,
  versioned: false,
  archivable: false,
  fields: {
    projectId: field(Id, { owner: true }),
    memberId: field(Id, { write: 'create', required: true }),
    level: field(GrantLevel, { write: 'always', required: true }),
  },
  computed: {
    memberName: z.string(),
    memberRole: z
      .string()
      .describe("The member's studio role; owners and admins reach every project whatever their grants."),
  },
  order: ['projectId', 'memberId', 'level', 'memberName', 'memberRole', 'createdAt'],
});

export type ProjectGrantRow = TableOf<typeof PROJECT_GRANT_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    project_grants: ProjectGrantRow;
  }
}
