import { defineEntity } from '../../core/entities.js';

/** A supplier: studio-level reference data. */
export const SUPPLIER = defineEntity({
  name: 'supplier',
  table: 'suppliers',
  owner: { column: 'studio_id', level: 'studio' },
});
