/**
 * The kinds of record an audit event is about (`line`, `project` …): a closed set, so a feed can be filtered by one and
 * read by kind, with no central list of them. Each domain declares its own kinds beside its entities (its
 * `entity.ts`), in two halves that must agree:
 *
 * ```ts
 * export const SUPPLIER_EVENTS = auditKind('supplier'); // the value: published in the audit actions' enumeration
 * declare module '../../core/audit-kinds.js' {
 *   interface AuditTargetKinds {
 *     supplier: typeof SUPPLIER_EVENTS; // the type: ctx.audit({ targetKind: 'supplier', … }) compiles
 *   }
 * }
 * ```
 *
 * A kind is a member of `AuditTargetKind` only when its entry is the type of a declared kind of the same name, so
 * neither half works without the other. The catalog imports every domain's entity module, so every process that
 * serves the catalog has declared every kind before it publishes or checks one (test/contract/declarations.test.ts).
 */

// biome-ignore lint/suspicious/noEmptyInterface: each domain adds its kinds to it (declaration merging)
export interface AuditTargetKinds {}

declare const declared: unique symbol;
/** A kind `auditKind` declared: its text, marked so that only a declaration can stand in AuditTargetKinds. */
export type DeclaredAuditKind<K extends string> = K & { readonly [declared]: K };

/** The closed union of every declared kind. */
export type AuditTargetKind = {
  [K in keyof AuditTargetKinds & string]: AuditTargetKinds[K] extends DeclaredAuditKind<K> ? K : never;
}[keyof AuditTargetKinds & string];

const KINDS = new Set<string>();

/** Declares a kind of audit target once; a second declaration of the same kind is a mistake, refused at start-up. */
export function auditKind<const K extends string>(kind: K): DeclaredAuditKind<K> {
  if (!/^[a-z][a-z0-9_]*$/.test(kind)) throw new Error(`Audit kind "${kind}" is not lower_snake_case.`);
  if (KINDS.has(kind)) throw new Error(`Audit kind ${kind} is declared twice.`);
  KINDS.add(kind);
  return kind as DeclaredAuditKind<K>;
}

/** Every kind declared so far, sorted: the order the published enumeration keeps. */
export const declaredAuditKinds = (): AuditTargetKind[] => [...KINDS].sort() as AuditTargetKind[];
