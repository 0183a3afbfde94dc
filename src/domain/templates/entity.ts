import { defineEntity } from '../../core/entities.js';

/** A project template: a starting point for new projects (studio-level reference data). */
export const TEMPLATE = defineEntity({
  name: 'project template',
  table: 'project_templates',
  owner: { column: 'studio_id', level: 'studio' },
});
