import { defineEntity } from '../../core/entities.js';

/** The studio itself: its own owner, so its id is compared with the caller's studio id. */
export const STUDIO = defineEntity({ name: 'studio', table: 'studios', owner: { column: 'id', level: 'studio' } });
