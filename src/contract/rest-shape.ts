import type { AnyAction } from '../core/define-action.js';
import { allErrorsOf } from '../core/action-errors.js';
import type { ErrorCode } from '../core/errors.js';
import { ROLE_PERMISSIONS } from '../core/permissions.js';
import { pathParams } from './http-path.js';
import { toJsonSchema } from './json-schema.js';

/**
 * The shape of a `/v1` request, read from the action: what travels in the path, the query and the body, and which
 * media type the body is. The OpenAPI builder publishes it and the REST surface enforces it, from this one place, so
 * the document and the server cannot drift.
 */

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };

/** The media type a JSON body is sent as: a PATCH is a JSON merge patch (RFC 7396); other writes are JSON. */
export const jsonBodyType = (method: string) =>
  method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';

export interface RestShape {
  /** Path parameter names, in order. */
  path: string[];
  /** Input fields read from the query string (GET and DELETE). */
  query: string[];
  /** Input fields read from a JSON body, and the media type that body must have; none when the operation takes none. */
  body?: { mediaType: string; fields: string[] };
  /** The body is the file itself (an upload): any of the declared image types. */
  file: boolean;
}

const shapes = new WeakMap<AnyAction, RestShape>();

/** Where each input field of a resource action travels over REST. */
export function restShape(action: AnyAction): RestShape {
  const known = shapes.get(action);
  if (known) return known;
  const http = action.http!;
  const props = Object.keys(
    ((toJsonSchema(action.publishedInput, 'input').schema as Schema).properties ?? {}) as Record<string, unknown>,
  );
  const path = pathParams(http.path);
  const controls = new Set([
    ...path,
    ...(action.versioned ? ['ifMatch'] : []),
    ...(action.keyed ? ['idempotencyKey'] : []),
  ]);
  const rest = props.filter((p) => !controls.has(p));
  let shape: RestShape;
  if (http.upload) {
    shape = { path, query: [http.upload.nameField], file: true };
  } else if (http.method === 'GET' || http.method === 'DELETE') {
    shape = { path, query: rest, file: false };
  } else {
    shape = {
      path,
      query: [],
      file: false,
      ...(rest.length ? { body: { mediaType: jsonBodyType(http.method), fields: rest } } : {}),
    };
  }
  shapes.set(action, shape);
  return shape;
}

/** True when some role lacks the permission the action's scope names, so a member can be refused by scope alone. */
const someRoleLacks = (scope: string) =>
  scope !== 'member' &&
  scope !== 'capability' &&
  Object.values(ROLE_PERMISSIONS).some((p) => !p.includes(scope as never));

/**
 * The codes a `/v1` operation can answer, as its OpenAPI responses list them: the action's own (`allErrorsOf`) as REST
 * reaches them. FORBIDDEN only where some caller can meet it (a capability that does not work, a scope a role lacks,
 * a write behind a record's access rule such as a project's view grant, a priced field, or a declared refusal);
 * PAYLOAD_TOO_LARGE only where a body is read; UNSUPPORTED_MEDIA_TYPE everywhere (a body where none is taken, or of
 * another type, is refused); METHOD_NOT_ALLOWED on every path (other methods, answered with Allow); SERVER_BUSY where
 * a body is taken (admission bounds the bodies in flight and answers with Retry-After).
 */
export function restErrorsOf(action: AnyAction): Set<ErrorCode> {
  const codes = new Set(allErrorsOf(action));
  const shape = restShape(action);
  const write = action.effect === 'mutation';
  const forbidden =
    action.errors.includes('FORBIDDEN') ||
    // A capability's one refusal, whatever is wrong with it (unknown, revoked, expired, malformed).
    action.scope === 'capability' ||
    someRoleLacks(action.scope) ||
    (write && action.plan.refs.some((r) => r.entity.access)) ||
    (write && action.plan.pricedInput.length > 0);
  if (!forbidden) codes.delete('FORBIDDEN');
  // Only an MCP client can put the question to the person; over REST a confirmed act takes confirm: true instead.
  codes.delete('CONFIRMATION_DECLINED');
  if (action.http!.method === 'GET') codes.delete('PAYLOAD_TOO_LARGE');
  codes.add('UNSUPPORTED_MEDIA_TYPE');
  codes.add('METHOD_NOT_ALLOWED');
  if (shape.body || shape.file) codes.add('SERVER_BUSY');
  return codes;
}
