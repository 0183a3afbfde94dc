import type { HeaderObject, ResponseObject } from 'openapi3-ts/oas31';
import type { AnyAction } from '../../core/define-action.js';
import { ERROR_CATALOG, ERROR_CODES, type ErrorCode, problemBody, ServiceError } from '../../core/errors.js';
import { restErrorsOf, restShape } from '../rest-shape.js';
import { HEADERS } from './headers.js';
import { COMPONENTS } from './schema.js';

export const problemSchema = {
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

// Every code an operation can answer is documented under its status, so a client knows each refusal it must handle.
export function errorResponses(a: AnyAction): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
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
  return responses;
}

/** The error map the document closes with: every code's status, title and sentence, for clients that map codes. */
export function serviceErrorMap() {
  return Object.fromEntries(
    ERROR_CODES.map((c) => [
      c,
      { status: ERROR_CATALOG[c].status, title: ERROR_CATALOG[c].title, sentence: ERROR_CATALOG[c].sentence },
    ]),
  );
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
