import type { AnyAction } from './define-action.js';
import { ServiceError } from './errors.js';

/**
 * Whether answers are checked against their actions' output schemas. Every output schema is strict and has no
 * transform or default, so a conforming answer is the checked one, key for key: the check finds handler mistakes
 * (a missing or extra field, a number where a string belongs) and changes nothing. It runs under the tests
 * (STUDIO_STRICT_ERRORS=1, NODE_ENV=test; vitest.config.ts sets STUDIO_CHECK_OUTPUT=1 too), and wherever
 * STUDIO_CHECK_OUTPUT=1; in production it is left out of the hot path (issue 27: a tenth of a GET's CPU).
 */
export const CHECKS_OUTPUT =
  process.env.STUDIO_CHECK_OUTPUT !== undefined
    ? process.env.STUDIO_CHECK_OUTPUT === '1'
    : process.env.NODE_ENV === 'test' || process.env.STUDIO_STRICT_ERRORS === '1';

/**
 * A handler's answer as the caller gets it: the answer itself (so tests see the production bytes), checked against
 * the action's output schema when checks are on; a mismatch is logged and answered INTERNAL.
 */
export function checkedOutput(
  action: AnyAction,
  answer: unknown,
  log?: (message: string, err: unknown) => void,
): unknown {
  if (!CHECKS_OUTPUT) return answer;
  const checked = action.output.safeParse(answer);
  if (!checked.success) {
    log?.(`output of ${action.name} does not match its schema`, checked.error);
    throw new ServiceError('INTERNAL');
  }
  return answer;
}
