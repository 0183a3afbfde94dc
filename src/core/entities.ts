/**
 * The records an input may name by id, and where each one belongs. `invoke` uses this one table to prove that every
 * nested id belongs to the project (or studio) the request is about, and to read versions for expected-version checks.
 * A field whose name is listed here is an ownership claim wherever it appears in any action's input.
 */
export type EntityKind =
  | 'studio'
  | 'project'
  | 'section'
  | 'line'
  | 'supplier'
  | 'unit'
  | 'member'
  | 'audit_event'
  | 'api_token';

export interface EntityInfo {
  table: string;
  /**
   * The column naming the owner: a project for project-scoped records, the studio for studio-level ones, the caller's
   * own membership for personal records (API tokens): someone else's answers as if it did not exist.
   */
  owner: { column: string; level: 'project' | 'studio' | 'member' };
}

export const ENTITIES: Record<EntityKind, EntityInfo> = {
  // A studio is its own owner: its id is compared with the caller's studio id.
  studio: { table: 'studios', owner: { column: 'id', level: 'studio' } },
  project: { table: 'projects', owner: { column: 'studio_id', level: 'studio' } },
  section: { table: 'sections', owner: { column: 'project_id', level: 'project' } },
  line: { table: 'lines', owner: { column: 'project_id', level: 'project' } },
  supplier: { table: 'suppliers', owner: { column: 'studio_id', level: 'studio' } },
  unit: { table: 'units', owner: { column: 'studio_id', level: 'studio' } },
  member: { table: 'members', owner: { column: 'studio_id', level: 'studio' } },
  audit_event: { table: 'audit_events', owner: { column: 'studio_id', level: 'studio' } },
  api_token: { table: 'api_tokens', owner: { column: 'member_id', level: 'member' } },
};

/** Input field → the entity its value names. Arrays (`lineIds`) name several. */
export const ID_FIELDS: Record<string, EntityKind> = {
  projectId: 'project',
  targetProjectId: 'project',
  sectionId: 'section',
  targetSectionId: 'section',
  sectionIds: 'section',
  itemId: 'line',
  lineId: 'line',
  lineIds: 'line',
  supplierId: 'supplier',
  unitId: 'unit',
  defaultUnitId: 'unit',
  memberId: 'member',
  eventId: 'audit_event',
  tokenId: 'api_token',
};
