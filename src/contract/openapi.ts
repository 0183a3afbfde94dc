import type { OpenAPIObject, OperationObject, PathItemObject } from 'openapi3-ts/oas31';
import type { AnyAction } from '../core/define-action.js';
import { rebaseRefs, toJsonSchema } from './json-schema.js';
import { parametersOf } from './openapi/parameters.js';
import { problemSchema, serviceErrorMap } from './openapi/problems.js';
import { requestBodyOf } from './openapi/request-body.js';
import { responsesOf } from './openapi/responses.js';
import { COMPONENTS, type Schema } from './openapi/schema.js';
import { restShape } from './rest-shape.js';

/** An operation as its first pass leaves it: the responses wait for every operation's schemas. */
interface BuiltOperation {
  action: AnyAction;
  op: OperationObject;
  output: unknown;
}

/** OpenAPI 3.1 for `/v1`, built from the resource actions: operationId = action name, scopes and errors declared once. */
export function buildOpenApiDocument(actions: readonly AnyAction[]): OpenAPIObject {
  const schemas: Record<string, unknown> = { Problem: problemSchema };
  const paths: Record<string, PathItemObject> = {};
  const resources = actions.filter((a) => a.kind === 'resource' && a.http);
  const built: BuiltOperation[] = [];
  for (const a of resources) {
    const operation = buildOperation(a, schemas);
    built.push(operation);
    (paths[`/v1${a.http!.path}`] ??= {})[a.http!.method.toLowerCase() as 'get'] = operation.op;
  }
  // Responses last: their examples are sampled from the finished components.
  for (const { action, op, output } of built) op.responses = responsesOf(action, output, schemas);
  return {
    openapi: '3.1.0',
    info: documentInfo(),
    servers: [{ url: '/', description: 'This server (the served /docs/openapi.json names its own base URL).' }],
    tags: [...new Set(resources.map((a) => a.domain))]
      .sort()
      .map((name) => ({ name, description: `${name} operations` })),
    paths: Object.fromEntries(Object.entries(paths).sort(([x], [y]) => x.localeCompare(y))),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([x], [y]) => x.localeCompare(y))) as never,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token: `studio token create`.' },
      },
    },
    'x-service-error-map': serviceErrorMap(),
  };
}

// Each resource action is one operation: its schemas join the shared components, its input splits into parameters
// and body as the REST surface reads them (rest-shape.ts).
function buildOperation(a: AnyAction, schemas: Record<string, unknown>): BuiltOperation {
  const shape = restShape(a);
  const input = toJsonSchema(a.publishedInput, 'input');
  const output = toJsonSchema(a.output, 'output');
  Object.assign(schemas, rebaseRefs(input.defs, COMPONENTS), rebaseRefs(output.defs, COMPONENTS));
  const inSchema = rebaseRefs(input.schema, COMPONENTS) as Schema;
  const op: OperationObject = {
    operationId: a.name,
    summary: a.summary,
    description: a.description,
    tags: [a.domain],
    // A capability action is anonymous: the share token in its path is the authority, no bearer token is read.
    security: a.scope === 'capability' ? [] : [{ bearer: [] }],
    'x-scope': a.scope,
    'x-consequential': a.consequential,
    parameters: parametersOf(a, shape, inSchema),
    responses: {},
  };
  const requestBody = requestBodyOf(a, shape, inSchema);
  if (requestBody) op.requestBody = requestBody;
  return { action: a, op, output: rebaseRefs(output.schema, COMPONENTS) };
}

// A fresh object each time: the served document spreads its own contact over it.
function documentInfo(): OpenAPIObject['info'] {
  return {
    title: 'Studio resource API',
    version: '1.0.0',
    description: [
      'Schedules, client documents and imports for interior-design studios. Money is a scale-4 integer string; nothing is a floating-point number.',
      '',
      'Every request but a share link carries `Authorization: Bearer <token>`. Writes to a record send its ETag as If-Match; creates send an Idempotency-Key. Member reads answer with an ETag and honour If-None-Match (304). Bodies are JSON (a PATCH: application/merge-patch+json); an operation listed without a body takes none. HEAD is answered wherever GET is. Every refusal is an RFC 9457 problem document with a stable code (x-service-error-map).',
    ].join('\n'),
    contact: { name: 'The studio server', url: '/docs' },
    license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
  };
}
