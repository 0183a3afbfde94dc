import { defineEntity } from '../../core/entities.js';

/** A photograph on a line; it belongs to the line's project (and, checked by its domain, to the line the path names). */
export const PHOTOGRAPH = defineEntity({
  name: 'photograph',
  table: 'line_photographs',
  owner: { column: 'project_id', level: 'project' },
});
