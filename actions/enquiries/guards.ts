import { ServiceError } from '../../src/core/errors.js';
import type { Guard } from '../../src/core/guards.js';
import { missingPermission } from '../../src/core/scope-refusal.js';

/**
 * Applying a response writes trade prices onto lines, which needs pricing:write as setting a line's trade price does;
 * the action's scope (procurement:write) says it is ordering work, and this says it is pricing work too.
 */
export const writesTradePrices: Guard = {
  name: 'writesTradePrices',
  check({ caller }) {
    if (!caller.permissions.has('pricing:write')) {
      throw new ServiceError(
        'FORBIDDEN',
        missingPermission(caller, 'pricing:write', "Writing a response's trade prices onto lines"),
      );
    }
  },
};
