import type { RequestBodyObject } from 'openapi3-ts/oas31';
import { PHOTOGRAPH_TYPES } from '../../../db/vocabulary.js';
import type { AnyAction } from '../../core/define-action.js';
import { toJsonSchema } from '../json-schema.js';
import type { RestShape } from '../rest-shape.js';
import type { Schema } from './schema.js';

/** The operation's body: the file itself for an upload, the body fields of the input as JSON, or none. */
export function requestBodyOf(a: AnyAction, shape: RestShape, inSchema: Schema): RequestBodyObject | undefined {
  if (shape.file) {
    // The body is the file itself, streamed; its type and name travel as Content-Type and a query parameter.
    return {
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
  }
  if (!shape.body) return undefined;
  return jsonBody(a, shape.body, inSchema);
}

// The input schema holds the path and query fields too: the body keeps only its own fields, their examples and rules.
function jsonBody(a: AnyAction, shapeBody: NonNullable<RestShape['body']>, inSchema: Schema): RequestBodyObject {
  const http = a.http!;
  const props = inSchema.properties ?? {};
  const required = new Set(inSchema.required ?? []);
  const fields = new Set(shapeBody.fields);
  const body: Schema = {
    ...inSchema,
    properties: Object.fromEntries(Object.entries(props).filter(([k]) => fields.has(k))),
    required: [...required].filter((r) => fields.has(r)),
    ...objectRules(a),
  };
  if (!body.required!.length) delete body.required;
  const bodyExample = Object.fromEntries(Object.entries(a.example).filter(([k]) => fields.has(k)));
  return {
    required: body.required !== undefined || Number(body.minProperties ?? 0) > 0,
    description:
      http.method === 'PATCH'
        ? 'A JSON merge patch (RFC 7396) of the fields to change, sent as application/merge-patch+json: at least one field; null clears a nullable field.'
        : 'The fields, as JSON.',
    content: { [shapeBody.mediaType]: { schema: body as never, example: bodyExample } },
  };
}

/** Object-level rules of a resource's body as its bound procedure field states them (a patch: at least one field). */
function objectRules(a: AnyAction): Schema {
  if (!a.bodySchema) return {};
  const { schema } = toJsonSchema(a.bodySchema, 'input');
  return Object.fromEntries(
    Object.entries(schema).filter(([k]) => ['minProperties', 'maxProperties'].includes(k)),
  ) as Schema;
}
