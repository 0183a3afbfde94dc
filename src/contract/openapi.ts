import type { OpenAPIObject, OperationObject, ParameterObject, PathItemObject } from 'openapi3-ts/oas31';
import type { AnyAction } from '../core/define-action.js';
import { PHOTOGRAPH_TYPES } from '../../db/vocabulary.js';
import { allErrorsOf } from '../core/action-errors.js';
import { ERROR_CATALOG, ERROR_CODES } from '../core/errors.js';
import { rebaseRefs, toJsonSchema } from './json-schema.js';
import { pathParams } from './http-path.js';
import { etagMode } from './etag.js';

const COMPONENTS = '#/components/schemas/';
type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };

const problemSchema = {
  type: 'object',
  description: 'RFC 9457 problem details with the stable code.',
  required: ['type', 'title', 'status', 'code', 'detail', 'requestId'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    code: { type: 'string', enum: ERROR_CODES },
    detail: { type: 'string', description: 'A sentence a person can act on.' },
    requestId: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

/** OpenAPI 3.1 for `/v1`, built from the resource actions: operationId = action name, scopes and errors declared once. */
export function buildOpenApiDocument(actions: readonly AnyAction[]): OpenAPIObject {
  const schemas: Record<string, unknown> = { Problem: problemSchema };
  const paths: Record<string, PathItemObject> = {};
  const resources = actions.filter((a) => a.kind === 'resource' && a.http);
  for (const a of resources) {
    const http = a.http!;
    const input = toJsonSchema(a.publishedInput, 'input');
    const output = toJsonSchema(a.output, 'output');
    Object.assign(schemas, rebaseRefs(input.defs, COMPONENTS), rebaseRefs(output.defs, COMPONENTS));
    const inSchema = rebaseRefs(input.schema, COMPONENTS) as Schema;
    const props = { ...(inSchema.properties ?? {}) };
    const required = new Set(inSchema.required ?? []);
    const parameters: ParameterObject[] = [];
    for (const p of pathParams(http.path)) {
      parameters.push({ name: p, in: 'path', required: true, schema: props[p] as never });
      delete props[p];
    }
    if (a.versioned) {
      parameters.push({
        name: 'If-Match',
        in: 'header',
        required: true,
        description: 'The ETag from your last read; stale answers 409 VERSION_CONFLICT, missing 428.',
        schema: { type: 'string' },
      });
      delete props.ifMatch;
    }
    if (a.keyed) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        description: 'A fresh UUID per intended act; repeat it to retry safely.',
        schema: { type: 'string', minLength: 8, maxLength: 200 },
      });
      delete props.idempotencyKey;
    }
    const op: OperationObject = {
      operationId: a.name,
      summary: a.summary,
      description: a.description,
      tags: [a.domain],
      // A capability action is anonymous: the share token in its path is the authority, no bearer token is read.
      security: a.scope === 'capability' ? [] : [{ bearer: [] }],
      'x-scope': a.scope,
      'x-consequential': a.consequential,
      parameters,
      responses: {},
    };
    const responses = op.responses!;
    if (http.upload) {
      // The body is the file itself, streamed; its type and name travel as Content-Type and a query parameter.
      const { field, typeField, nameField } = http.upload;
      parameters.push({
        name: nameField,
        in: 'query',
        required: false,
        description: String((props[nameField] as Schema | undefined)?.description ?? 'The file name.'),
        schema: { type: 'string', maxLength: 500 },
      });
      for (const f of [field, typeField, nameField]) delete props[f];
      op.requestBody = {
        required: true,
        description: 'The file itself (not JSON), up to 128 MiB; its Content-Type as the file says.',
        content: Object.fromEntries(
          [...PHOTOGRAPH_TYPES, 'application/octet-stream'].map((t) => [
            t,
            { schema: { type: 'string', contentMediaType: t } },
          ]),
        ),
      };
    } else if (http.method === 'GET') {
      for (const [name, schema] of Object.entries(props)) {
        parameters.push({
          name,
          in: 'query',
          required: required.has(name),
          schema: schema as never,
          ...(schema.description ? { description: schema.description as string } : {}),
        });
      }
      if (http.filters) op['x-filters'] = http.filters;
    } else if (Object.keys(props).length) {
      const body = { ...inSchema, properties: props, required: [...required].filter((r) => r in props) };
      if (!body.required.length) delete (body as Partial<Schema>).required;
      op.requestBody = {
        required: body.required !== undefined,
        content: {
          [http.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json']: { schema: body as never },
        },
      };
    }
    const status = String(http.status ?? 200);
    const success: Record<string, unknown> = {
      description: a.summary,
      content: { 'application/json': { schema: rebaseRefs(output.schema, COMPONENTS) } },
    };
    const mode = etagMode(a);
    if (mode) {
      const description =
        mode === 'version'
          ? "The record's version and a digest of this body, quoted; send it back as If-Match."
          : 'A digest of this representation, for If-None-Match.';
      success.headers = { ETag: { description, schema: { type: 'string' } } };
    }
    if (http.operation) {
      success.headers = {
        ...(success.headers as object),
        'Retry-After': {
          description: 'While the operation is queued or running: seconds to wait before polling again.',
          schema: { type: 'integer', minimum: 0 },
        },
        ...(status === '202'
          ? { Location: { description: 'Where to poll: /v1/operations/{opId}.', schema: { type: 'string' } } }
          : {}),
      };
    }
    responses[status] = success;
    if (a.media && http.method === 'GET') {
      // ?variant= answers the bytes instead of the record.
      parameters.push(
        {
          name: a.media.query,
          in: 'query',
          required: false,
          description: 'Answer these bytes instead of the record.',
          schema: { type: 'string', enum: [...a.media.choices] },
        },
        {
          name: a.media.tagQuery,
          in: 'query',
          required: false,
          description: "The rendering named by the record's URL; when current, the bytes may be cached for ever.",
          schema: { type: 'string', maxLength: 64 },
        },
      );
      success.content = {
        ...(success.content as object),
        'image/*': { schema: { type: 'string', contentMediaType: 'image/*' } },
      };
      success.headers = {
        ETag: { description: 'With a variant: names exactly these bytes.', schema: { type: 'string' } },
      };
      responses['304'] = { description: 'Not modified (If-None-Match matched the bytes).' };
    }
    if (http.method === 'GET' && mode) responses['304'] = { description: 'Not modified (If-None-Match matched).' };
    for (const code of [...allErrorsOf(a)].sort()) {
      const st = String(ERROR_CATALOG[code].status);
      const existing = responses[st] as { description: string } | undefined;
      responses[st] = {
        description: existing ? `${existing.description}, ${code}` : code,
        content: { 'application/problem+json': { schema: { $ref: `${COMPONENTS}Problem` } } },
      };
    }
    const key = `/v1${http.path}`;
    (paths[key] ??= {})[http.method.toLowerCase() as 'get'] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Studio resource API',
      version: '1.0.0',
      description:
        'Schedules, client documents and imports for interior-design studios. Money is a scale-4 integer string; nothing is a floating-point number.',
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
    },
    servers: [{ url: '/' }],
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
    'x-service-error-map': Object.fromEntries(
      ERROR_CODES.map((c) => [
        c,
        { status: ERROR_CATALOG[c].status, title: ERROR_CATALOG[c].title, sentence: ERROR_CATALOG[c].sentence },
      ]),
    ),
  };
}
