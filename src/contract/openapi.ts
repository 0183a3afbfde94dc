import type {
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  ResponseObject,
} from 'openapi3-ts/oas31';
import type { AnyAction } from '../core/define-action.js';
import { PHOTOGRAPH_TYPES } from '../../db/vocabulary.js';
import { ERROR_CATALOG, ERROR_CODES, type ErrorCode, problemBody, ServiceError } from '../core/errors.js';
import { rebaseRefs, toJsonSchema } from './json-schema.js';
import { etagMode } from './etag.js';
import { restErrorsOf, restShape } from './rest-shape.js';
import { ExampleSampler } from './examples.js';

const COMPONENTS = '#/components/schemas/';
type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };

const problemSchema = {
  type: 'object',
  description: 'RFC 9457 problem details with the stable code.',
  required: ['type', 'title', 'status', 'code', 'detail', 'requestId'],
  properties: {
    type: { type: 'string', format: 'uri-reference', description: 'Where the code is explained: /docs/errors#CODE.' },
    title: { type: 'string', description: "The code's title." },
    status: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status, repeated.' },
    code: { type: 'string', enum: ERROR_CODES, description: 'The stable error code (x-service-error-map).' },
    detail: { type: 'string', description: 'A sentence a person can act on.' },
    requestId: { type: 'string', description: 'Quote it when asking about this request.' },
    errors: {
      type: 'array',
      description: 'VALIDATION_FAILED: each field that is wrong, and why.',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: { type: 'string', description: 'The field, dotted (quantity.amount4), or (input).' },
          message: { type: 'string', description: 'What is wrong with it.' },
        },
      },
    },
    currentVersion: {
      type: 'integer',
      minimum: 1,
      description: 'VERSION_CONFLICT: the version the record is at now (read it again before you retry).',
    },
  },
};

/** The placeholder request id of the documented problem examples. */
const EXAMPLE_REQUEST_ID = '97c7gtwkn800000001';

/** Response headers, each described once. */
const HEADERS = {
  etagVersion: {
    required: true,
    description:
      'The record\'s version and a digest of this body, quoted ("4-1c9e0a7b"): send it back as If-Match to change the record, or as If-None-Match to read it again.',
    schema: { type: 'string', pattern: '^"[0-9]+-[0-9a-f]+"$' },
  },
  etagContent: {
    required: true,
    description: 'A digest of this representation, quoted: send it back as If-None-Match to read it again.',
    schema: { type: 'string', pattern: '^"[0-9a-z]+"$' },
  },
  etagMedia: {
    required: true,
    description:
      'A strong validator naming exactly this answer (the record, or with ?variant= the bytes), for If-None-Match.',
    schema: { type: 'string', pattern: '^"[^"]+"$' },
  },
  location: {
    required: true,
    description: 'The path of what was made, under /v1: read it there.',
    schema: { type: 'string', format: 'uri-reference' },
  },
  wwwAuthenticate: {
    required: true,
    description: 'RFC 6750: `Bearer realm="studio"`, with error="invalid_token" when a token was sent and refused.',
    schema: { type: 'string' },
  },
  allow: {
    required: true,
    description: 'The methods this path serves, comma-separated (HEAD wherever GET is).',
    schema: { type: 'string' },
  },
  retryAfter: {
    required: true,
    description: 'Seconds to wait before sending the request again.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  pollAfter: {
    required: false,
    description: 'Sent while the operation is queued or running: seconds to wait before polling again.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  operationLocation: {
    required: true,
    description: 'Where to poll the operation: /v1/operations/{opId} (get_operation).',
    schema: { type: 'string', format: 'uri-reference' },
  },
} satisfies Record<string, HeaderObject>;

/** Why a status is answered beyond its codes' own sentences, and the headers it carries. */
const STATUS_NOTES: Partial<Record<number, { note: string; headers?: Record<string, HeaderObject> }>> = {
  401: {
    note: 'No API token, or one that is unknown, revoked or expired.',
    headers: { 'WWW-Authenticate': HEADERS.wwwAuthenticate },
  },
  405: {
    note: 'Answered for any method this path does not serve (not this one): Allow lists those it does.',
    headers: { Allow: HEADERS.allow },
  },
  415: { note: 'A body of another media type, or a body where the operation takes none.' },
  503: {
    note: 'Too many requests with a body are being received at once.',
    headers: { 'Retry-After': HEADERS.retryAfter },
  },
};

const IF_NONE_MATCH: ParameterObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'ETags from earlier reads (RFC 9110 §13.1.2): when one names the current representation (compared weakly, so W/"…" matches too), or the value is *, the answer is 304 with no body.',
  schema: { type: 'string', maxLength: 2000 },
  example: '"4-1c9e0a7b"',
};

/** A readable name for a path parameter or field: `projectId` → `project`. */
const noun = (name: string) =>
  name
    .replace(/Id$/, '')
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase()
    .trim();

const GENERIC_ID = 'An opaque id.';

/** OpenAPI 3.1 for `/v1`, built from the resource actions: operationId = action name, scopes and errors declared once. */
export function buildOpenApiDocument(actions: readonly AnyAction[]): OpenAPIObject {
  const schemas: Record<string, unknown> = { Problem: problemSchema };
  const paths: Record<string, PathItemObject> = {};
  const resources = actions.filter((a) => a.kind === 'resource' && a.http);
  const built: Array<{ action: AnyAction; op: OperationObject; output: unknown }> = [];
  for (const a of resources) {
    const http = a.http!;
    const shape = restShape(a);
    const input = toJsonSchema(a.publishedInput, 'input');
    const output = toJsonSchema(a.output, 'output');
    Object.assign(schemas, rebaseRefs(input.defs, COMPONENTS), rebaseRefs(output.defs, COMPONENTS));
    const inSchema = rebaseRefs(input.schema, COMPONENTS) as Schema;
    const props = inSchema.properties ?? {};
    const required = new Set(inSchema.required ?? []);
    const example = a.example;
    const described = (name: string, fallback: string) => {
      const d = props[name]?.description as string | undefined;
      return d && d !== GENERIC_ID ? d : fallback;
    };
    const withExample = (p: ParameterObject, name: string): ParameterObject =>
      example[name] !== undefined ? { ...p, example: example[name] } : p;

    const parameters: ParameterObject[] = [];
    for (const p of shape.path) {
      parameters.push(
        withExample(
          {
            name: p,
            in: 'path',
            required: true,
            description: described(p, `The ${noun(p)}'s id, exactly as this API returned it.`),
            schema: withoutDescription(props[p]),
          },
          p,
        ),
      );
    }
    for (const q of shape.query) {
      const upload = http.upload?.nameField === q;
      parameters.push(
        withExample(
          {
            name: q,
            in: 'query',
            required: !upload && required.has(q),
            description: described(q, `Only records whose ${noun(q)} is this.`),
            schema: upload ? { type: 'string', maxLength: 500 } : withoutDescription(props[q]),
          },
          q,
        ),
      );
    }
    const mode = etagMode(a);
    const memberRead = http.method === 'GET' && (mode !== undefined || a.media !== undefined);
    if (memberRead) parameters.push(IF_NONE_MATCH);
    if (a.versioned) {
      const source = a.etagFrom;
      parameters.push({
        name: 'If-Match',
        in: 'header',
        required: true,
        description: `The ETag of your last read${source ? ` (${source.name})` : ''}, exactly as returned, quotes included; it is compared whole (RFC 9110 strong comparison), so only the record's current ETag, as you read it, lets the write through. Another record's ETag, an altered one, or one read before the record changed answers 409 VERSION_CONFLICT with the currentVersion; none, or *, answers 428 PRECONDITION_REQUIRED (every write names the version it was made against); a tag without its quotes, or a weak one (W/"…"), is 400.`,
        schema: { type: 'string', maxLength: 64, pattern: '^(\\*|"[^"]*"(\\s*,\\s*"[^"]*")*)$' },
        ...(typeof example.ifMatch === 'string' ? { example: example.ifMatch } : {}),
        ...(source ? { 'x-etag-from': source.name } : {}),
      });
    }
    if (a.keyed) {
      const key = withoutDescription(props.idempotencyKey);
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        description:
          'A fresh UUID per intended act; send it again with the same request to retry safely (the first answer is repeated). The same key with other input is 422 IDEMPOTENCY_KEY_REUSED; while the first request with it runs, 409 IDEMPOTENCY_IN_PROGRESS.',
        schema: key,
        ...(typeof example.idempotencyKey === 'string' ? { example: example.idempotencyKey } : {}),
      });
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
    if (shape.file) {
      // The body is the file itself, streamed; its type and name travel as Content-Type and a query parameter.
      op.requestBody = {
        required: true,
        description:
          'The file itself (not JSON, not base64), up to 128 MiB by default; its Content-Type as the file says (the type is read from the bytes).',
        content: Object.fromEntries(
          [...PHOTOGRAPH_TYPES, 'application/octet-stream'].map((t) => [
            t,
            { schema: { type: 'string', contentMediaType: t } },
          ]),
        ),
      };
    } else if (shape.body) {
      const fields = new Set(shape.body.fields);
      const body: Schema = {
        ...inSchema,
        properties: Object.fromEntries(Object.entries(props).filter(([k]) => fields.has(k))),
        required: [...required].filter((r) => fields.has(r)),
        ...objectRules(a),
      };
      if (!body.required!.length) delete body.required;
      const bodyExample = Object.fromEntries(Object.entries(example).filter(([k]) => fields.has(k)));
      op.requestBody = {
        required: body.required !== undefined || Number(body.minProperties ?? 0) > 0,
        description:
          http.method === 'PATCH'
            ? 'A JSON merge patch (RFC 7396) of the fields to change, sent as application/merge-patch+json: at least one field; null clears a nullable field.'
            : 'The fields, as JSON.',
        content: { [shape.body.mediaType]: { schema: body as never, example: bodyExample } },
      };
    }
    built.push({ action: a, op, output: rebaseRefs(output.schema, COMPONENTS) });
    const key = `/v1${http.path}`;
    (paths[key] ??= {})[http.method.toLowerCase() as 'get'] = op;
  }

  // Responses last: their examples are sampled from the finished components.
  for (const { action: a, op, output } of built) {
    const http = a.http!;
    const mode = etagMode(a);
    const sampler = new ExampleSampler(schemas as Record<string, Schema>, flatExample(a.example));
    const success: ResponseObject = {
      description: a.summary,
      content: { 'application/json': { schema: output as never, example: sampler.sample(output as Schema) } },
    };
    const headers: Record<string, HeaderObject> = {};
    if (mode) headers.ETag = mode === 'version' ? HEADERS.etagVersion : HEADERS.etagContent;
    if (http.created) headers.Location = HEADERS.location;
    if (http.operation || a.startsOperation) {
      // An operation's answer says when to poll again while it works; a 202 (an act accepted) says where.
      headers['Retry-After'] = HEADERS.pollAfter;
      if (http.status === 202) headers.Location = HEADERS.operationLocation;
    }
    if (a.media && http.method === 'GET') {
      // ?variant= answers the bytes instead of the record.
      op.parameters!.push(
        {
          name: a.media.query,
          in: 'query',
          required: false,
          description: 'Answer these bytes instead of the record (an image; its type in Content-Type).',
          schema: { type: 'string', enum: [...a.media.choices] },
          example: a.media.choices[0],
        },
        {
          name: a.media.tagQuery,
          in: 'query',
          required: false,
          description: "The rendering named by the record's URL; when current, the bytes may be cached for ever.",
          schema: { type: 'string', maxLength: 64 },
        },
      );
      success.content!['image/*'] = { schema: { type: 'string', contentMediaType: 'image/*' } };
      headers.ETag = HEADERS.etagMedia;
    }
    if (Object.keys(headers).length) success.headers = headers;
    const responses = op.responses!;
    responses[String(http.status ?? 200)] = success;
    if (http.method === 'GET' && (mode || a.media)) {
      responses['304'] = {
        description: 'Not modified: If-None-Match named the current representation. No body.',
        headers: { ETag: headers.ETag! },
      };
    }
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of [...restErrorsOf(a)].sort()) {
      const st = ERROR_CATALOG[code].status;
      byStatus.set(st, [...(byStatus.get(st) ?? []), code]);
    }
    for (const [st, codes] of [...byStatus].sort(([x], [y]) => x - y)) {
      const notes = st === 400 ? invalidNote(a) : STATUS_NOTES[st];
      const first = codes.includes('VERSION_CONFLICT') ? 'VERSION_CONFLICT' : codes[0]!;
      const problem = problemBody(
        new ServiceError(first, undefined, first === 'VERSION_CONFLICT' ? { extra: { currentVersion: 4 } } : {}),
        EXAMPLE_REQUEST_ID,
      );
      responses[String(st)] = {
        description: codes.join(', '),
        ...(notes?.headers ? { headers: notes.headers } : {}),
        content: { 'application/problem+json': { schema: { $ref: `${COMPONENTS}Problem` }, example: problem } },
        ...(notes ? { 'x-note': notes.note } : {}),
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Studio resource API',
      version: '1.0.0',
      description: [
        'Schedules, client documents and imports for interior-design studios. Money is a scale-4 integer string; nothing is a floating-point number.',
        '',
        'Every request but a share link carries `Authorization: Bearer <token>`. Writes to a record send its ETag as If-Match; creates send an Idempotency-Key. Member reads answer with an ETag and honour If-None-Match (304). Bodies are JSON (a PATCH: application/merge-patch+json); an operation listed without a body takes none. HEAD is answered wherever GET is. Every refusal is an RFC 9457 problem document with a stable code (x-service-error-map).',
      ].join('\n'),
      contact: { name: 'The studio server', url: '/docs' },
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
    },
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
    'x-service-error-map': Object.fromEntries(
      ERROR_CODES.map((c) => [
        c,
        { status: ERROR_CATALOG[c].status, title: ERROR_CATALOG[c].title, sentence: ERROR_CATALOG[c].sentence },
      ]),
    ),
  };
}

/** What 400 means for this operation: the query string is read (and unlisted parameters refused) by reads and deletes. */
function invalidNote(a: AnyAction): { note: string; headers?: Record<string, HeaderObject> } {
  const http = a.http!;
  return http.method === 'GET' || http.method === 'DELETE'
    ? { note: 'A parameter that is not as its schema says, or a query parameter this operation does not list.' }
    : {
        note: restShape(a).body
          ? 'A parameter or body field that is not as its schema says, or a body field this operation does not list.'
          : 'A parameter that is not as its schema says.',
      };
}

/** A parameter's schema without its description (the parameter carries it). */
function withoutDescription(schema: Schema | undefined): Schema {
  const { description: _d, ...rest } = schema ?? {};
  return rest;
}

/** Object-level rules of a resource's body as its bound procedure field states them (a patch: at least one field). */
function objectRules(a: AnyAction): Schema {
  if (!a.bodySchema) return {};
  const { schema } = toJsonSchema(a.bodySchema, 'input');
  return Object.fromEntries(
    Object.entries(schema).filter(([k]) => ['minProperties', 'maxProperties'].includes(k)),
  ) as Schema;
}

/** The action's worked example as hints for response examples: its fields, and ids under the names outputs use. */
function flatExample(example: Record<string, unknown>): Record<string, unknown> {
  const hints: Record<string, unknown> = { ...example };
  if (typeof example.itemId === 'string') hints.lineId ??= example.itemId;
  return hints;
}
