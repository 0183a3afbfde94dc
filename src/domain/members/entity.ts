import { defineEntity } from '../../core/entities.js';

/** A studio member. */
export const MEMBER = defineEntity({
  name: 'member',
  table: 'members',
  owner: { column: 'studio_id', level: 'studio' },
});
