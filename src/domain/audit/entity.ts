import { defineEntity } from '../../core/entities.js';

/** One event of the studio's hash-chained audit feed. */
export const AUDIT_EVENT = defineEntity({
  name: 'audit event',
  table: 'audit_events',
  owner: { column: 'studio_id', level: 'studio' },
});
