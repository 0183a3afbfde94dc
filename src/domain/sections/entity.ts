import { defineEntity } from '../../core/entities.js';

/** A section (usually a room) of one project. */
export const SECTION = defineEntity({
  name: 'section',
  table: 'sections',
  owner: { column: 'project_id', level: 'project' },
});
