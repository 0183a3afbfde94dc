import { defineEntity } from '../../core/entities.js';

/** A schedule line (an `items` id in the resource API); never addressable outside its project. */
export const LINE = defineEntity({ name: 'line', table: 'lines', owner: { column: 'project_id', level: 'project' } });
