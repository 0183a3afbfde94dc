import type { HeaderObject, ResponseObject } from 'openapi3-ts/oas31';
import type { AnyAction } from '../../core/define-action.js';
import { etagMode } from '../etag.js';
import { ExampleSampler } from '../examples.js';
import { HEADERS } from './headers.js';
import { errorResponses } from './problems.js';
import type { Schema } from './schema.js';

/**
 * The operation's answers: its success with the headers it carries, 304 for a conditional read, and every refusal.
 * Built once every operation's schemas are in the components, which the success example is sampled from.
 */
export function responsesOf(
  a: AnyAction,
  output: unknown,
  schemas: Record<string, unknown>,
): Record<string, ResponseObject> {
  const http = a.http!;
  const headers = successHeaders(a);
  const success = successResponse(a, output, schemas);
  if (Object.keys(headers).length) success.headers = headers;
  const responses: Record<string, ResponseObject> = {};
  responses[String(http.status ?? 200)] = success;
  if (http.method === 'GET' && (etagMode(a) || a.media)) {
    responses['304'] = {
      description: 'Not modified: If-None-Match named the current representation. No body.',
      headers: { ETag: headers.ETag! },
    };
  }
  return Object.assign(responses, errorResponses(a));
}

// The example shows a record as the API answers it, with the worked example's ids where the output names them.
function successResponse(a: AnyAction, output: unknown, schemas: Record<string, unknown>): ResponseObject {
  const sampler = new ExampleSampler(schemas as Record<string, Schema>, flatExample(a.example));
  const success: ResponseObject = {
    description: a.summary,
    content: { 'application/json': { schema: output as never, example: sampler.sample(output as Schema) } },
  };
  if (a.media && a.http!.method === 'GET') {
    // ?variant= answers the bytes instead of the record.
    success.content!['image/*'] = { schema: { type: 'string', contentMediaType: 'image/*' } };
  }
  return success;
}

// The headers a client acts on next: the ETag to send back, where the made record is, when and where to poll.
function successHeaders(a: AnyAction): Record<string, HeaderObject> {
  const http = a.http!;
  const mode = etagMode(a);
  const headers: Record<string, HeaderObject> = {};
  if (mode) headers.ETag = mode === 'version' ? HEADERS.etagVersion : HEADERS.etagContent;
  if (http.created) headers.Location = HEADERS.location;
  if (http.operation || a.startsOperation) {
    // An operation's answer says when to poll again while it works; a 202 (an act accepted) says where.
    headers['Retry-After'] = HEADERS.pollAfter;
    if (http.status === 202) headers.Location = HEADERS.operationLocation;
  }
  // The bytes' ETag names the rendering too, so it replaces the record's.
  if (a.media && http.method === 'GET') headers.ETag = HEADERS.etagMedia;
  return headers;
}

/** The action's worked example as hints for response examples: its fields, and ids under the names outputs use. */
function flatExample(example: Record<string, unknown>): Record<string, unknown> {
  const hints: Record<string, unknown> = { ...example };
  if (typeof example.itemId === 'string') hints.lineId ??= example.itemId;
  return hints;
}
