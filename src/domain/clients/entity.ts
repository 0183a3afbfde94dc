import { defineEntity } from '../../core/entities.js';

/** A client: studio-level reference data that projects refer to. */
export const CLIENT = defineEntity({
  name: 'client',
  table: 'clients',
  owner: { column: 'studio_id', level: 'studio' },
});
