import { defineEntity } from '../../core/entities.js';

/** A unit of quantity (each, m², roll …): studio-level reference data. */
export const UNIT = defineEntity({ name: 'unit', table: 'units', owner: { column: 'studio_id', level: 'studio' } });
