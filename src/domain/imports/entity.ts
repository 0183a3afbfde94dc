import { defineEntity } from '../../core/entities.js';

/** A spreadsheet import: it belongs to one project and is never addressable outside it. */
export const IMPORT = defineEntity({
  name: 'import',
  table: 'imports',
  owner: { column: 'project_id', level: 'project' },
});

/** A saved column mapping: the studio's own, for any of its projects' imports. */
export const IMPORT_MAPPING = defineEntity({
  name: 'import mapping',
  table: 'import_mappings',
  owner: { column: 'studio_id', level: 'studio' },
});
