import type { z } from 'zod';
import type { Entity } from './entities.js';
import { type PathStep, walkSchema } from './schema-marks.js';

export interface RefSite {
  path: PathStep[];
  entity: Entity;
  within: string | undefined;
  /** The action only reads this record, even when it writes (see refTo). */
  reads: boolean;
}

/** Drop a key (true), descend (a sub-trie), or withhold every priced name below (`open`: the schema says nothing). */
export type Redaction = Map<string, Redaction | true | 'open'>;

/** What `invoke` needs to know about an action's schemas, read once from their marks. */
export interface ActionPlan {
  refs: readonly RefSite[];
  /** Paths of priced fields in the input: writing any of them needs pricing:write. */
  pricedInput: readonly PathStep[][];
  /** What to withhold from the output without pricing:read; null when nothing is priced. */
  redaction: Redaction | null;
}

/**
 * Names of every field declared priced in any schema seen so far. Inside values whose schema is open (an audit
 * event's `changes`, keyed by the changed record's own field names), these names are withheld too. Plans are made
 * when actions are defined, so the set is complete once the catalog has loaded, before any request is served.
 */
const PRICED_NAMES = new Set<string>();
export const pricedFieldNames = (): ReadonlySet<string> => PRICED_NAMES;

export function planOf(input: z.ZodType, output: z.ZodType): ActionPlan {
  const refs: RefSite[] = [];
  const pricedInput: PathStep[][] = [];
  walkSchema(input, ({ path, mark }) => {
    if (mark.kind === 'ref') refs.push({ path, entity: mark.entity, within: mark.within, reads: mark.reads === true });
    if (mark.kind === 'priced') {
      pricedInput.push(path);
      noteName(path);
    }
  });
  const redaction: Redaction = new Map();
  walkSchema(
    output,
    ({ path, mark }) => {
      if (mark.kind !== 'priced' || !path.length) return;
      noteName(path);
      place(redaction, path, true);
    },
    undefined,
    (path) => place(redaction, path, 'open'),
  );
  return { refs, pricedInput, redaction: hasDrop(redaction) ? redaction : null };
}

function noteName(path: PathStep[]) {
  const last = path.at(-1);
  if (last && last !== '*') PRICED_NAMES.add(last);
}

function place(trie: Redaction, path: PathStep[], leaf: true | 'open') {
  let node = trie;
  for (const [i, step] of path.entries()) {
    const existing = node.get(step);
    if (i === path.length - 1) {
      if (existing === undefined || (leaf === true && existing !== true)) node.set(step, leaf);
      return;
    }
    if (existing === true || existing === 'open') return;
    let next = existing;
    if (!next) node.set(step, (next = new Map()));
    node = next;
  }
}

const hasDrop = (trie: Redaction): boolean => [...trie.values()].some((v) => v === true || v === 'open' || hasDrop(v));
