import type { RowReader } from '../../db/store.js';
import { isWellFormedText } from './validation.js';

/**
 * What a capability (a share token) opens, once `invoke` has checked it: the studio whose records the action reads,
 * and the project they belong to. A binding may return more (a share's intent and expiry), which its handler reads.
 */
export interface CapabilityGrant {
  studioId: string;
  projectId: string;
}

/**
 * How an action of scope `capability` is authorised, in place of a caller: the input field that carries the
 * capability, and how it opens. `open` runs on the connection the handler then uses (inside a write's transaction,
 * in a read's snapshot), so a capability revoked a moment earlier never reaches the handler; it throws the
 * capability's one refusal for anything that does not work.
 */
export interface CapabilityBinding {
  field: string;
  open: (queryRow: RowReader, value: string, now: string) => Promise<CapabilityGrant>;
}

/**
 * The raw input with its capability field made lookup-safe before validation: text that is not well-formed (a lone
 * surrogate, NUL) becomes '' instead of a VALIDATION_FAILED naming the field, so a malformed token gets the same
 * refusal, from the same lookup, as an unknown, revoked or expired one. '' names no capability. Anything that is not
 * text at all is left for validation, which says the field takes a string.
 */
export function lookupSafeCapability(raw: unknown, field: string): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const value = (raw as Record<string, unknown>)[field];
  if (typeof value !== 'string' || isWellFormedText(value)) return raw;
  return { ...(raw as Record<string, unknown>), [field]: '' };
}
