/**
 * Tool schemas are read by a model on every connection, so each byte counts (tools/list has a 10 KB budget).
 * These rewrites keep the meaning of a JSON Schema and drop only its redundancy:
 * - the safe-integer bounds zod writes on every `z.int()` are dropped (JSON numbers past them are refused anyway);
 * - `propertyNames: {type: 'string'}` and `additionalProperties: {}` (what any JSON object allows) are dropped;
 * - keywords beside a `$ref` that repeat the referenced definition's own (zod writes a refined shared shape so) go;
 * - `$defs` that are referenced once are inlined where they are used;
 * - a `pattern` beside `format: uuid` (zod spells the UUID grammar out as a 200-character regex) goes: the format says it.
 * For tools/list (`listing`), read by every connection within a 10 KB budget, bounds and the `additionalProperties:
 * false` of nested objects go too (the input object itself keeps it), `type: 'string'` beside an enum or a const of strings goes, and a
 * definition that is a bare string (an opaque id) is written `{type: 'string'}`: bounds are the server's to enforce, it
 * names them when one is exceeded, and get_action gives every schema whole.
 * Nullable fields stay `anyOf: [T, {type: 'null'}]`: `type: [T, 'null']` is shorter but less portable (single-type
 * dialects such as Gemini's function declarations reject it; the MCP Inspector's --strict check warns about it).
 */
type Schema = Record<string, unknown>;

export function compactSchema<T>(schema: T, opts: { listing?: boolean } = {}): T {
  const dropped = dropRedundancy(schema, false, opts.listing) as Schema;
  if (!dropped.$defs) return dropped as T;
  const s = withoutRepeats(dropped, dropped.$defs as Record<string, Schema>) as Schema;
  const defs = s.$defs as Record<string, Schema>;
  if (opts.listing)
    for (const [name, def] of Object.entries(defs)) if (isBareString(def)) defs[name] = { type: 'string' };
  const uses = new Map<string, number>();
  countRefs(s, uses);
  const kept: Record<string, Schema> = {};
  for (const [name, def] of Object.entries(defs))
    if ((uses.get(name) ?? 0) > 1 && !(opts.listing && isBareString(def))) kept[name] = def;
  const inlined = inlineRefs({ ...s, $defs: undefined }, defs, kept) as Schema;
  delete inlined.$defs;
  if (Object.keys(kept).length) {
    // Definitions kept may themselves refer to single-use ones.
    inlined.$defs = Object.fromEntries(Object.entries(kept).map(([n, d]) => [n, inlineRefs(d, defs, kept)]));
  }
  return inlined as T;
}

/** `named`: v maps names to schemas (properties, $defs), so its keys are field names, not keywords. */
function dropRedundancy(v: unknown, named = false, listing = false, nested = false): unknown {
  if (Array.isArray(v)) return v.map((x) => dropRedundancy(x, false, listing, nested));
  if (!v || typeof v !== 'object') return v;
  const out: Schema = {};
  for (const [k, val] of Object.entries(v)) {
    if (named) {
      out[k] = dropRedundancy(val, false, listing, true);
      continue;
    }
    if (listing && BOUNDS.has(k) && typeof val === 'number') continue;
    if (
      listing &&
      k === 'type' &&
      val === 'string' &&
      (isStringEnum((v as Schema).enum) || isString((v as Schema).const))
    )
      continue;
    if (listing && nested && k === 'additionalProperties' && val === false) continue;
    if ((k === 'minimum' && val === Number.MIN_SAFE_INTEGER) || (k === 'maximum' && val === Number.MAX_SAFE_INTEGER))
      continue;
    if (k === 'propertyNames' && isOnly(val, 'type', 'string')) continue;
    if (k === 'additionalProperties' && val && typeof val === 'object' && !Object.keys(val).length) continue;
    if (k === 'pattern' && (v as Schema).format === 'uuid') continue;
    out[k] = dropRedundancy(val, k === 'properties' || k === '$defs' || k === 'patternProperties', listing, nested);
  }
  return out;
}

/** Drops keywords beside a `$ref` whose values are exactly the referenced definition's. */
function withoutRepeats(v: unknown, defs: Record<string, Schema>): unknown {
  if (Array.isArray(v)) return v.map((x) => withoutRepeats(x, defs));
  if (!v || typeof v !== 'object') return v;
  const obj = v as Schema;
  const ref = typeof obj.$ref === 'string' && obj.$ref.startsWith('#/$defs/') ? defs[obj.$ref.slice(8)] : undefined;
  const out: Schema = {};
  for (const [k, val] of Object.entries(obj)) {
    if (ref && k !== '$ref' && k in ref && JSON.stringify(ref[k]) === JSON.stringify(val)) continue;
    out[k] = withoutRepeats(val, defs);
  }
  return out;
}

const BOUNDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minimum', 'maximum']);
const BARE_STRING_KEYS = new Set(['type', 'minLength', 'maxLength', 'description']);
const isBareString = (def: Schema) => def.type === 'string' && Object.keys(def).every((k) => BARE_STRING_KEYS.has(k));

const isString = (c: unknown) => typeof c === 'string';

/** An enum of strings only: its values say the type, so a listing leaves `type: 'string'` beside it out. */
const isStringEnum = (e: unknown) => Array.isArray(e) && e.length > 0 && e.every((x) => typeof x === 'string');

const isOnly = (v: unknown, key: string, value: unknown) =>
  !!v && typeof v === 'object' && Object.keys(v).length === 1 && (v as Schema)[key] === value;

function countRefs(v: unknown, uses: Map<string, number>) {
  if (Array.isArray(v)) for (const x of v) countRefs(x, uses);
  else if (v && typeof v === 'object') {
    for (const [k, val] of Object.entries(v)) {
      if (k === '$ref' && typeof val === 'string' && val.startsWith('#/$defs/')) {
        const name = val.slice('#/$defs/'.length);
        uses.set(name, (uses.get(name) ?? 0) + 1);
      } else countRefs(val, uses);
    }
  }
}

function inlineRefs(v: unknown, defs: Record<string, Schema>, kept: Record<string, Schema>): unknown {
  if (Array.isArray(v)) return v.map((x) => inlineRefs(x, defs, kept));
  if (!v || typeof v !== 'object') return v;
  const obj = v as Schema;
  const ref = obj.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const name = ref.slice('#/$defs/'.length);
    if (!kept[name] && defs[name]) {
      const { $ref: _r, ...siblings } = obj;
      return inlineRefs({ ...defs[name], ...siblings }, defs, kept);
    }
  }
  const out: Schema = {};
  for (const [k, val] of Object.entries(obj)) if (val !== undefined) out[k] = inlineRefs(val, defs, kept);
  return out;
}
