import { defineEntity } from '../../core/entities.js';

/** An invitation to the studio: another studio's answers as if it did not exist. */
export const INVITATION = defineEntity({
  name: 'invitation',
  table: 'invitations',
  owner: { column: 'studio_id', level: 'studio' },
});
