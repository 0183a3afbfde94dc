import type { ParameterObject } from 'openapi3-ts/oas31';
import type { AnyAction } from '../../core/define-action.js';
import { etagMode } from '../etag.js';
import type { RestShape } from '../rest-shape.js';
import type { Schema } from './schema.js';

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

/** An operation's input fields as the parameters read them: their schemas, which are required, and the example. */
interface Fields {
  props: Record<string, Schema>;
  required: Set<string>;
  example: Record<string, unknown>;
}

/** The operation's parameters in the order a reader meets them: path, query, the conditional headers, the bytes. */
export function parametersOf(a: AnyAction, shape: RestShape, inSchema: Schema): ParameterObject[] {
  const fields: Fields = {
    props: inSchema.properties ?? {},
    required: new Set(inSchema.required ?? []),
    example: a.example,
  };
  return [
    ...shape.path.map((p) => pathParameter(fields, p)),
    ...shape.query.map((q) => queryParameter(a, fields, q)),
    ...preconditionHeaders(a, fields),
    ...mediaParameters(a),
  ];
}

// A path parameter is an id: described by its field, or else by the record it names.
function pathParameter(fields: Fields, p: string): ParameterObject {
  return withExample(
    fields,
    {
      name: p,
      in: 'path',
      required: true,
      description: described(fields, p, `The ${noun(p)}'s id, exactly as this API returned it.`),
      schema: withoutDescription(fields.props[p]),
    },
    p,
  );
}

// An upload names its file in the query: that field is any name, and optional, whatever the input says.
function queryParameter(a: AnyAction, fields: Fields, q: string): ParameterObject {
  const upload = a.http!.upload?.nameField === q;
  return withExample(
    fields,
    {
      name: q,
      in: 'query',
      required: !upload && fields.required.has(q),
      description: described(fields, q, `Only records whose ${noun(q)} is this.`),
      schema: upload ? { type: 'string', maxLength: 500 } : withoutDescription(fields.props[q]),
    },
    q,
  );
}

// The headers that make reads cheap and writes safe: If-None-Match on member reads, If-Match and Idempotency-Key on writes.
function preconditionHeaders(a: AnyAction, fields: Fields): ParameterObject[] {
  const parameters: ParameterObject[] = [];
  const { example, props } = fields;
  const memberRead = a.http!.method === 'GET' && (etagMode(a) !== undefined || a.media !== undefined);
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
  return parameters;
}

// A record with images is read as JSON or, with ?variant=, as the bytes of one rendering.
function mediaParameters(a: AnyAction): ParameterObject[] {
  if (!a.media || a.http!.method !== 'GET') return [];
  return [
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
  ];
}

/** The field's own description, unless it is the generic one an id gets: then the parameter's fallback says more. */
function described(fields: Fields, name: string, fallback: string): string {
  const d = fields.props[name]?.description as string | undefined;
  return d && d !== GENERIC_ID ? d : fallback;
}

/** The parameter with the worked example's value of its field, when the example has one. */
function withExample(fields: Fields, p: ParameterObject, name: string): ParameterObject {
  return fields.example[name] !== undefined ? { ...p, example: fields.example[name] } : p;
}

export /** A parameter's schema without its description (the parameter carries it). */
function withoutDescription(schema: Schema | undefined): Schema {
  const { description: _d, ...rest } = schema ?? {};
  return rest;
}
