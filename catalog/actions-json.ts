import type { AnyAction } from '../src/core/define-action.js';
import { allErrorsOf } from '../src/core/action-errors.js';
import { toJsonSchema } from '../src/surfaces/json-schema.js';

/**
 * The action catalog (`/docs/api/actions.json`, MCP resource `service://actions`): every capability with its kind,
 * domain, texts, scope, schemas, route or tRPC path, and errors. Shared shapes are defined once under `$defs`.
 */
export function buildActionsDocument(actions: readonly AnyAction[]) {
  const defs: Record<string, unknown> = {};
  const entries = actions.map((a) => {
    const input = toJsonSchema(a.fullInput, 'input');
    const output = toJsonSchema(a.output, 'output');
    Object.assign(defs, input.defs, output.defs);
    return {
      name: a.name,
      kind: a.kind,
      effect: a.effect,
      domain: a.domain,
      summary: a.summary,
      description: a.description,
      scope: a.scope,
      consequential: a.consequential,
      ...(a.http ? { http: { method: a.http.method, path: `/v1${a.http.path}` } } : {}),
      ...(a.trpcPath ? { trpcPath: a.trpcPath } : {}),
      ...(a.mcp?.advertised ? { mcpAdvertised: true } : {}),
      ...(a.versioned ? { versioned: a.kind === 'resource' ? 'If-Match' : 'expectedVersion' } : {}),
      ...(a.keyed ? { idempotency: a.kind === 'resource' ? 'Idempotency-Key' : 'commandKey' } : {}),
      input: input.schema,
      output: output.schema,
      errors: [...allErrorsOf(a)].sort(),
    };
  });
  const count = (k: string) => actions.filter((a) => a.kind === k).length;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Studio action catalog',
    counts: { total: actions.length, resource: count('resource'), procedure: count('procedure'), file: count('file') },
    actions: entries,
    $defs: Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b))),
  };
}
