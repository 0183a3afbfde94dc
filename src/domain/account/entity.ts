import { defineEntity } from '../../core/entities.js';

/** An API token: personal, so another member's answers as if it did not exist. */
export const API_TOKEN = defineEntity({
  name: 'api token',
  table: 'api_tokens',
  owner: { column: 'member_id', level: 'member' },
});
