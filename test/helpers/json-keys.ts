/** Every key anywhere in a JSON value: what a leak walk looks for in an answer. */
export function keysIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysIn(v, out);
    }
  }
  return out;
}

/**
 * Every property name in a JSON Schema, read as a schema (a property may itself be named `properties` or `items`, as
 * a piece's custom properties are): object properties at any depth, through arrays, unions and `$defs`.
 */
export function schemaPropertyNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return out;
  const s = schema as Record<string, unknown>;
  const sub = (v: unknown) => schemaPropertyNames(v, out);
  for (const [name, v] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) {
    out.add(name);
    sub(v);
  }
  for (const key of ['items', 'additionalProperties', 'not', 'contains']) sub(s[key]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) for (const v of (s[key] as unknown[]) ?? []) sub(v);
  for (const key of ['$defs', 'patternProperties']) for (const v of Object.values((s[key] ?? {}) as object)) sub(v);
  return out;
}

/**
 * The keys of every `properties` object anywhere in a document that holds schemas without being one (an OpenAPI
 * document: its schemas sit under components and paths), read as plain JSON.
 */
export function propertiesAnywhere(doc: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(doc)) for (const v of doc) propertiesAnywhere(v, out);
  else if (doc && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc)) {
      if (k === 'properties' && v && typeof v === 'object') for (const name of Object.keys(v)) out.add(name);
      propertiesAnywhere(v, out);
    }
  }
  return out;
}
