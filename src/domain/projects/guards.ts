import { ServiceError } from '../../core/errors.js';
import type { Guard } from '../../core/guards.js';
import { PROJECT } from './entity.js';

/**
 * An archived project is frozen: no write may change it or anything in it (or copy into it) until restore_project.
 * Actions about the project's own lifecycle and access (archive, restore, duplicate, grants) do not take this guard.
 */
export const frozenWhenArchived: Guard = {
  name: 'frozenWhenArchived',
  check({ write, refs }) {
    if (!write) return;
    for (const ref of refs) {
      if (ref.entity === PROJECT && !ref.reads && ref.row.archived_at) {
        throw new ServiceError(
          'ARCHIVED',
          'This project is archived, so its schedule cannot change; restore it with restore_project first.',
        );
      }
    }
  },
};
