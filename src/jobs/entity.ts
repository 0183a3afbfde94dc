import { defineEntity } from '../core/entities.js';

/** An operation belongs to its studio; who in it may see one is the starting act's permission (operations.ts). */
export const OPERATION = defineEntity({
  name: 'operation',
  table: 'operations',
  owner: { column: 'studio_id', level: 'studio' },
});
