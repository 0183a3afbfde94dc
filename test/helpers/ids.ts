/**
 * Fresh keys for test calls, the same way in every suite: a write's command key or Idempotency-Key, or a suffix that
 * makes a name unique to one test.
 */

/** A new random UUID. */
export const uuid = (): string => crypto.randomUUID();

/** The Idempotency-Key header of a new write over the resource API. */
export const idempotencyKey = (): { 'idempotency-key': string } => ({ 'idempotency-key': uuid() });
