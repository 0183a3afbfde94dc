import { z } from 'zod';
import type { Entity } from './entities.js';

/**
 * What a field means, said where the field is declared: a reference to a record of some kind (ownership is checked by
 * `invoke`), a priced value (withheld without `pricing:read`, written only with `pricing:write`), or money that any
 * member may see. Core walks the schemas for these marks; it keeps no list of field names.
 *
 * A mark is a `z.lazy` wrapper whose definition object is tagged. The wrapper is invisible in JSON Schema (a shared
 * shape stays a `$ref`), and zod's `.describe()`, `.optional()` and friends keep the tag: describe clones share the
 * definition, and the wrappers are unwrapped by the walk.
 */
export type Mark =
  | { kind: 'ref'; entity: Entity; within?: string; reads?: true }
  | { kind: 'priced' }
  | { kind: 'public' };

const MARKS = new WeakMap<object, Mark>();
/** Definitions of the money shape: every one reached in an output must sit under a priced or public mark. */
const MONEY = new WeakSet<object>();

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: object } })._zod.def;

function marked<T extends z.ZodType>(inner: T, mark: Mark): z.ZodLazy<T> {
  const wrapper = z.lazy(() => inner);
  MARKS.set(defOf(wrapper), mark);
  return wrapper;
}

/**
 * A reference to a record of `entity` (the line, supplier … entity its domain defines). `within` names the input field holding the project a
 * project-level record must belong to (default `projectId`); a mismatch answers 404, never 403. `reads` says the
 * action only reads the record even when it writes (a member's own layout of a project's schedule changes nothing in
 * the project): its access rule is asked about a read, so a view grant is enough.
 */
export const refTo = <T extends z.ZodType>(id: T, entity: Entity, opts: { within?: string; reads?: true } = {}) =>
  marked(id, { kind: 'ref', entity, ...opts });

/** A trade price, markup, margin or anything derived from them: absent without pricing:read, set only with pricing:write. */
export const priced = <T extends z.ZodType>(schema: T) => marked(schema, { kind: 'priced' });

/** Money a client may see (client prices and totals): declared so, since money is priced unless said otherwise. */
export const publicMoney = <T extends z.ZodType>(schema: T) => marked(schema, { kind: 'public' });

/** Declares the shared money shape, so the contract can find every amount of money in every output. */
export function declareMoney<T extends z.ZodType>(schema: T): T {
  MONEY.add(defOf(schema));
  return schema;
}

export const isMoney = (schema: z.ZodType) => MONEY.has(defOf(schema));

/** A step of a path into a value: a property name, or `*` for every element of an array or value of a record. */
export type PathStep = string;

export interface FoundMark {
  path: PathStep[];
  mark: Mark;
}

/**
 * Walks a schema and calls `onMark` for every mark with the path that reaches it, `onMoney` for every money shape with
 * the nearest priced or public mark above it, and `onOpen` where the schema stops saying what a value holds
 * (`unknown`). A shape that contains itself is walked once per path.
 */
export function walkSchema(
  root: z.ZodType,
  onMark: (found: FoundMark) => void,
  onMoney?: (path: PathStep[], cover: Mark | undefined) => void,
  onOpen?: (path: PathStep[]) => void,
) {
  const visit = (schema: z.ZodType, path: PathStep[], cover: Mark | undefined, ancestors: ReadonlySet<object>) => {
    const def = defOf(schema) as { type: string } & Record<string, unknown>;
    if (ancestors.has(def)) return;
    const mark = MARKS.get(def);
    let inner = cover;
    if (mark) {
      onMark({ path, mark });
      if (mark.kind !== 'ref') inner = mark;
    }
    if (MONEY.has(def)) onMoney?.(path, inner);
    const within = new Set(ancestors).add(def);
    const go = (s: unknown, p: PathStep[] = path) => visit(s as z.ZodType, p, inner, within);
    switch (def.type) {
      case 'object':
        for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) go(v, [...path, k]);
        break;
      case 'array':
        go(def.element, [...path, '*']);
        break;
      case 'record': {
        // A record of unknown values (an audit event's `changes`) is open at its own level: its keys are the names.
        const valueType = (defOf(def.valueType as z.ZodType) as { type: string }).type;
        if (valueType === 'unknown' || valueType === 'any') onOpen?.(path);
        else go(def.valueType, [...path, '*']);
        break;
      }
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        go(def.innerType);
        break;
      case 'lazy':
        go((def.getter as () => z.ZodType)());
        break;
      case 'union':
        for (const o of def.options as z.ZodType[]) go(o);
        break;
      case 'intersection':
        go(def.left);
        go(def.right);
        break;
      case 'pipe':
        go(def.in);
        break;
      case 'unknown':
      case 'any':
        onOpen?.(path);
        break;
    }
  };
  visit(root, [], undefined, new Set());
}

/** The values at a path in a value (`*` fans out over arrays and objects). */
export function valuesAt(value: unknown, path: readonly PathStep[]): unknown[] {
  let current: unknown[] = [value];
  for (const step of path) {
    const next: unknown[] = [];
    for (const v of current) {
      if (!v || typeof v !== 'object') continue;
      if (step === '*') next.push(...(Array.isArray(v) ? v : Object.values(v)));
      else if (!Array.isArray(v) && step in v) next.push((v as Record<string, unknown>)[step]);
    }
    current = next;
  }
  return current;
}
