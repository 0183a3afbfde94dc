import type { AnyAction } from '../core/define-action.js';
import { allErrorsOf } from '../core/action-errors.js';
import { toJsonSchema } from './json-schema.js';

type Schema = Record<string, unknown>;

/** Who an action is and what it is for: the part of its entry every description of it (this catalog, get_action) opens with. */
export function identityOf(a: AnyAction) {
  return {
    name: a.name,
    kind: a.kind,
    domain: a.domain,
    summary: a.summary,
    description: a.description,
    scope: a.scope,
  };
}

/**
 * What an action takes, answers and can refuse with: input and output as JSON Schema (the shared shapes they refer to
 * are added to `defs`, to be listed once) and every error code it can answer, sorted.
 */
export function contractOf(a: AnyAction, defs: Record<string, Schema>) {
  const input = toJsonSchema(a.publishedInput, 'input');
  const output = toJsonSchema(a.output, 'output');
  Object.assign(defs, input.defs, output.defs);
  return { input: input.schema, output: output.schema, errors: [...allErrorsOf(a)].sort() };
}

/** Shared shape definitions in name order, as the documents list them. */
export function sortedDefs(defs: Record<string, Schema>): Record<string, Schema> {
  return Object.fromEntries(Object.entries(defs).sort(([x], [y]) => x.localeCompare(y)));
}

/**
 * The action catalog (`/docs/api/actions.json`, MCP resource `service://actions`): every capability with its kind,
 * domain, texts, scope, schemas, route or tRPC path, and errors. Shared shapes are defined once under `$defs`.
 */
export function buildActionsDocument(actions: readonly AnyAction[]) {
  const defs: Record<string, Schema> = {};
  const entries = actions.map((a) => {
    const { input, output, errors } = contractOf(a, defs);
    return {
      ...identityOf(a),
      effect: a.effect,
      consequential: a.consequential,
      ...(a.http ? { http: { method: a.http.method, path: `/v1${a.http.path}` } } : {}),
      // A file tool's plain-HTTP upload: the file as the body, other fields in the query, Idempotency-Key.
      ...(a.fileRoute ? { http: { method: 'POST', path: a.fileRoute.path, body: 'the file itself' } } : {}),
      ...(a.trpcPath ? { trpcPath: a.trpcPath } : {}),
      ...(a.mcp?.advertised ? { mcpAdvertised: true } : {}),
      ...(a.versioned ? { versioned: a.kind === 'resource' ? 'If-Match' : 'expectedVersion' } : {}),
      ...(a.keyed ? { idempotency: a.kind === 'resource' ? 'Idempotency-Key' : 'commandKey' } : {}),
      // The person must agree (src/core/confirmation.ts): asked over MCP elicitation, else this field set to true.
      ...(a.confirmation ? { confirmation: 'confirm' } : {}),
      input,
      output,
      errors,
    };
  });
  const count = (k: string) => actions.filter((a) => a.kind === k).length;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Studio action catalog',
    counts: { total: actions.length, resource: count('resource'), procedure: count('procedure'), file: count('file') },
    actions: entries,
    $defs: sortedDefs(defs),
  };
}
