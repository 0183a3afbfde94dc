import type { Database } from '../../db/schema.js';
import type { Caller } from './context.js';
import type { RowReader } from '../../db/store.js';
import type { Entity } from './entities.js';

/** A record the input names, after `invoke` proved it is the caller's to name. */
export interface ResolvedRef {
  /** The input field, dotted for nested ones (`lines.0.lineId`). */
  field: string;
  entity: Entity;
  id: string;
  /** The record's whole row when its entity asks for it (`wholeRow`, as a project does), else its id and owner. */
  row: Record<string, unknown>;
  /** The action only reads this record, even when it writes (a reference declared with `reads`). */
  reads: boolean;
}

export interface GuardInput {
  actionName: string;
  caller: Caller;
  input: Record<string, unknown>;
  write: boolean;
  /** A raw one-row read on the request's connection (its transaction or snapshot). */
  queryRow: RowReader;
  /** Every record the input names, in the order the schema declares them. */
  refs: readonly ResolvedRef[];
  project: Database['projects'] | undefined;
}

/**
 * A domain rule that runs before the handler, inside the write's transaction (or the read's snapshot), after
 * authentication, scope, validation and ownership: a project's archived freeze, an issued revision's immutability.
 * Actions list the guards they need; `invoke` runs them in order and knows none of them.
 */
export interface Guard {
  name: string;
  check(input: GuardInput): void | Promise<void>;
}
