/**
 * Worked examples for the bodies a document publishes, derived from their JSON Schema: every property filled, each
 * value chosen to satisfy its schema (formats, patterns, bounds, enums, one branch of a union), preferring the values of
 * the action's own worked example where a property has the same name, so a response echoes the request it answers.
 * Deterministic: the same schema always gives the same example. Linters check every example against its schema.
 */

type Schema = Record<string, unknown>;

/** The fake ids the actions' worked examples use, by field name: the shape the API mints, no meaning. */
const IDS: Record<string, string> = {
  projectId: '0000000000000000000000000a',
  lineId: '0000000000000000000000000b',
  itemId: '0000000000000000000000000b',
  sectionId: '0000000000000000000000000c',
  photographId: '0000000000000000000000000f',
  shareId: '0000000000000000000000000s',
};
const ANY_ID = '0000000000000000000000000z';
const TIME = '2026-11-22T10:15:00.000Z';
const UUID = '8d0f4f5e-2b1c-4c59-9d51-0b7f4c8f6f11';
/** Candidates for a string with a pattern, tried in order: amounts, ratios, a code, a digest, a tag, a date. */
const PATTERNED = [
  '12500000',
  '3500',
  '1',
  '0',
  'HH-001',
  'ab0d076734b24c82b8e44fbe35173155c9f8f01fdaf2e31f91b26e369aee9f93',
  '2026-12-31',
];

export class ExampleSampler {
  constructor(
    private readonly components: Record<string, Schema>,
    private readonly hints: Record<string, unknown> = {},
  ) {}

  sample(schema: Schema, name = '', depth = 0): unknown {
    if (depth > 12) return undefined;
    const ref = schema.$ref as string | undefined;
    if (ref) {
      const target = this.components[ref.slice(ref.lastIndexOf('/') + 1)];
      return target ? this.sample({ ...target, ...withoutRef(schema) }, name, depth + 1) : undefined;
    }
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = schema[key] as Schema[] | undefined;
      if (!options) continue;
      const base = withoutKey(schema, key);
      // The first branch that is not null and can be sampled; the base's own keywords apply to every branch.
      for (const o of options) {
        if (o.type === 'null') continue;
        const v = this.sample({ ...base, ...o }, name, depth + 1);
        if (v !== undefined) return v;
      }
      return options.some((o) => o.type === 'null') ? null : undefined;
    }
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    switch (type) {
      case 'object':
        return this.object(schema, depth);
      case 'array': {
        const item = schema.items ? this.sample(schema.items as Schema, singular(name), depth + 1) : undefined;
        if (item === undefined) return [];
        return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => item);
      }
      case 'string':
        return this.string(schema, name);
      case 'integer':
      case 'number':
        return this.number(schema, name);
      case 'boolean':
        return typeof this.hints[name] === 'boolean' ? this.hints[name] : true;
      case 'null':
        return null;
      default:
        return undefined;
    }
  }

  private object(schema: Schema, depth: number) {
    const out: Record<string, unknown> = {};
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [key, prop] of Object.entries(props)) {
      const v = this.sample(prop, key, depth + 1);
      if (v !== undefined) out[key] = v;
      else if (required.has(key)) return undefined;
    }
    return out;
  }

  private string(schema: Schema, name: string): string {
    const hint = this.hints[name];
    const fits = (v: unknown): v is string =>
      typeof v === 'string' &&
      v.length >= Number(schema.minLength ?? 0) &&
      v.length <= Number(schema.maxLength ?? Number.POSITIVE_INFINITY) &&
      (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(v));
    if (schema.format === 'date-time') return TIME;
    if (schema.format === 'uuid') return fits(hint) ? hint : UUID;
    if (fits(hint)) return hint;
    if (typeof schema.pattern === 'string') return PATTERNED.find(fits) ?? '';
    if (name === 'id' || name.endsWith('Id')) return IDS[name] ?? ANY_ID;
    if (name === 'url' || name.endsWith('Url')) return `/v1/projects/${IDS.projectId}`;
    const words =
      name
        .replace(/([A-Z])/g, ' $1')
        .toLowerCase()
        .trim() || 'text';
    const text = `Example ${words}`;
    const min = Number(schema.minLength ?? 0);
    return text.padEnd(min, '.').slice(0, Number(schema.maxLength ?? text.length));
  }

  private number(schema: Schema, name: string): number {
    const hint = this.hints[name];
    const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
    const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
    const ok = (v: number) => (min === undefined || v >= min) && (max === undefined || v <= max);
    if (typeof hint === 'number' && ok(hint)) return hint;
    for (const v of [1, min ?? 0, max ?? 0]) if (ok(v)) return v;
    return 0;
  }
}

const withoutKey = (schema: Schema, key: string) =>
  Object.fromEntries(Object.entries(schema).filter(([k]) => k !== key));
const withoutRef = (schema: Schema) => withoutKey(schema, '$ref');
const singular = (name: string) => (name.endsWith('s') ? name.slice(0, -1) : name);
