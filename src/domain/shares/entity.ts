import { defineEntity } from '../../core/entities.js';

/** A share of a project's document: never addressable outside its project (another project's answers 404). */
export const SHARE = defineEntity({
  name: 'share',
  table: 'shares',
  owner: { column: 'project_id', level: 'project' },
});
