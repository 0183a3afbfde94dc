import { defineEntity } from '../../core/entities.js';

/** A code scheme (list_codes …): studio-level reference data that numbers lines. */
export const CODE_SCHEME = defineEntity({
  name: 'code scheme',
  table: 'code_schemes',
  owner: { column: 'studio_id', level: 'studio' },
});
