import { z } from 'zod';

type Schema = Record<string, unknown>;

/**
 * JSON Schema (draft 2020-12) of a zod schema. Shapes named in zod's global registry (Money, Line …) stay as
 * `$ref: '#/$defs/<id>'` with their definitions returned apart, so a document can hold each one once.
 */
export function toJsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
): { schema: Schema; defs: Record<string, Schema> } {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    cycles: 'ref',
    reused: 'inline',
  }) as Schema;
  const defs = { ...((json.$defs ?? {}) as Record<string, Schema>) };
  delete json.$defs;
  delete json.$schema;
  return { schema: json, defs };
}

/** One self-contained document: the schema with its `$defs` (MCP tool schemas, get_action). */
export function standaloneJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Schema {
  const { schema: s, defs } = toJsonSchema(schema, io);
  return Object.keys(defs).length ? { ...s, $defs: defs } : s;
}

/** Rewrites `#/$defs/X` references (at any depth) to another base, e.g. `#/components/schemas/`. */
export function rebaseRefs<T>(value: T, base: string): T {
  if (Array.isArray(value)) return value.map((v) => rebaseRefs(v, base)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] =
        k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
          ? base + v.slice('#/$defs/'.length)
          : rebaseRefs(v, base);
    }
    return out as T;
  }
  return value;
}
