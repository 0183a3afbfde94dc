import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { CurrentUser } from './shapes.js';
import { currentUser } from '../../src/domain/account/current-user.js';

export const getCurrentUser = defineAction({
  name: 'get_current_user',
  kind: 'procedure',
  effect: 'query',
  domain: 'account',
  summary: 'Who you are: your user, studio, role, permissions and interface state.',
  description:
    'Returns the person this token acts for, the studio it acts in and their role and permissions there, the id of the token in use, and their interface state in that studio: when the first-run flow was completed (complete_first_run) and the sidebar with its version (update_sidebar_state).',
  scope: 'self',
  input: z.strictObject({}),
  output: CurrentUser,
  errors: [],
  example: {},
  handler: (ctx) => currentUser(ctx),
});
