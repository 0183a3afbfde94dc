import type { AnyAction } from './define-action.js';
import { UNIVERSAL_ERRORS, type ErrorCode } from './errors.js';

const cache = new WeakMap<AnyAction, ReadonlySet<ErrorCode>>();

/**
 * Every code an action can answer: what it declares, the universal ones, and those its declaration implies
 * (ids → NOT_FOUND, versions → PRECONDITION_REQUIRED and VERSION_CONFLICT, keys → the idempotency codes,
 * confirmation → CONFIRMATION_REQUIRED and CONFIRMATION_DECLINED).
 * Published in actions.json and OpenAPI, so documentation and behaviour come from the same place.
 */
export function allErrorsOf(action: AnyAction): ReadonlySet<ErrorCode> {
  let set = cache.get(action);
  if (set) return set;
  const codes = new Set<ErrorCode>([...UNIVERSAL_ERRORS, ...action.errors]);
  if (action.plan.refs.length) codes.add('NOT_FOUND');
  if (action.versioned) codes.add('PRECONDITION_REQUIRED').add('VERSION_CONFLICT').add('NOT_FOUND');
  if (action.keyed) {
    codes.add('IDEMPOTENCY_KEY_REUSED').add('IDEMPOTENCY_IN_PROGRESS');
    codes.add('IDEMPOTENCY_KEY_REQUIRED');
  }
  // An act the person must agree to: refused until they do, and when they decline.
  if (action.confirmation) codes.add('CONFIRMATION_REQUIRED').add('CONFIRMATION_DECLINED');
  // A REST operation refuses a body of another media type than it takes, and any body where it takes none.
  if (action.http) codes.add('UNSUPPORTED_MEDIA_TYPE');
  if (action.scope === 'capability') codes.delete('UNAUTHENTICATED');
  set = codes;
  cache.set(action, set);
  return set;
}
