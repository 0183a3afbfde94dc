import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnyAction } from '../core/define-action.js';
import { invoke, type Runtime } from '../core/invoke.js';
import { ServiceError } from '../core/errors.js';
import { bearerToken } from '../core/auth.js';
import { toJsonSchema } from '../contract/json-schema.js';
import { sendProblem } from './problem.js';
import { restEtag, taggedBody } from '../contract/etag.js';
import { fastifyPath, pathParams } from '../contract/http-path.js';
import type { StagedBlob } from '../files/blob-store.js';
import { mediaChoice, sendMedia, stageUpload, uploadFields } from './rest-files.js';
import { notModified } from './not-modified.js';
import { CAPABILITY_HEADERS } from './capability-headers.js';
import { type RestShape, restShape } from '../contract/rest-shape.js';
import { hasBody } from './admission.js';

/** Query strings carry text; integer and boolean fields of the input schema are read back into their types. */
function queryCoercer(action: AnyAction) {
  const props = (toJsonSchema(action.fullInput, 'input').schema.properties ?? {}) as Record<
    string,
    { type?: string; anyOf?: Array<{ type?: string }> }
  >;
  const typeOf = (name: string) =>
    props[name]?.type ?? props[name]?.anyOf?.find((s) => s.type && s.type !== 'null')?.type;
  return (query: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(query)) {
      if (typeof v !== 'string') {
        out[k] = v;
        continue;
      }
      const t = typeOf(k);
      out[k] =
        t === 'integer' && /^-?\d{1,15}$/.test(v)
          ? Number(v)
          : t === 'boolean' && (v === 'true' || v === 'false')
            ? v === 'true'
            : v;
    }
    return out;
  };
}

/** The content type fastify gives a JSON object it serialises, for a body sent as text already made. */
const JSON_TEXT = 'application/json; charset=utf-8';

/**
 * One route per resource action. The adapter only moves data: path parameters, query or body, and the If-Match and
 * Idempotency-Key headers become the action's input; `invoke` does everything else.
 */
export function registerRestRoutes(app: FastifyInstance, rt: Runtime, actions: readonly AnyAction[]) {
  for (const action of actions) {
    const http = action.http;
    if (action.kind !== 'resource' || !http) continue;
    const params = pathParams(http.path);
    const coerce = queryCoercer(action);
    const shape = restShape(action);
    const route = {
      method: http.method,
      url: fastifyPath(http.path),
      // An action anyone may call (authorised by a share token in its path) is admitted without a bearer token.
      // An upload streams its body to disk: it takes none of admission's body memory.
      config: { anonymous: action.scope === 'capability', streamsBody: Boolean(http.upload) },
      ...(http.upload ? { bodyLimit: rt.config.uploadLimit } : {}),
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        let upload: StagedBlob | undefined;
        if (action.scope === 'capability') reply.headers(CAPABILITY_HEADERS);
        try {
          const wanted =
            action.media && http.method === 'GET' ? mediaChoice(action.media, req.query as never) : undefined;
          if (http.upload) upload = await stageUpload(rt, req, reply);
          else checkBodyType(req, shape);
          const input = assembleInput(req, action, params, coerce);
          const output = await invoke(rt, action, input, {
            // Admission found the caller of an authenticated route; the token is read again only where it did not.
            caller: req.caller ?? undefined,
            token: req.caller ? undefined : bearerToken(req.headers.authorization),
            requestId: req.id,
            upload,
          });
          if (wanted) return await sendMedia(rt, req, reply, action.media!, output, wanted);
          const tagged = taggedBody(action, output);
          const etag = tagged?.etag ?? restEtag(action, output);
          if (etag) reply.header('etag', etag);
          // Members only: a collection never answers 304.
          if (etag && http.method === 'GET' && notModified(req.headers['if-none-match'], etag))
            return reply.code(304).send();
          if (http.operation || action.startsOperation)
            operationHeaders(reply, output as { id: string; status: string }, http.status);
          if (http.created) {
            const values: Record<string, unknown> = { ...(req.params as object), id: (output as { id?: unknown }).id };
            reply.header(
              'location',
              `/v1${http.created.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(String(values[p])))}`,
            );
          }
          if (tagged)
            return reply
              .code(http.status ?? 200)
              .type(JSON_TEXT)
              .send(tagged.text);
          return reply
            .code(http.status ?? 200)
            .type('application/json')
            .send(output);
        } catch (err) {
          return sendProblem(reply, err, req.id);
        } finally {
          if (upload) await rt.files.discard(upload);
        }
      },
    };
    if (!http.upload) {
      app.route(route);
      continue;
    }
    // An upload's body is the file: in a context of its own, every media type reaches the route unparsed, and the
    // route streams it to disk. Other routes keep JSON only.
    void app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
      scope.route(route);
    });
  }
}

/**
 * A body is JSON of the one media type the operation publishes (a PATCH: application/merge-patch+json), and an
 * operation that publishes none takes none: anything else is 415, as the document says.
 */
function checkBodyType(req: FastifyRequest, shape: RestShape) {
  if (!hasBody(req.raw)) return;
  if (!shape.body) {
    throw new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      'This operation takes no request body; send the request without one (and without a Content-Type).',
    );
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== shape.body.mediaType) {
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `Send this request's body as ${shape.body.mediaType}.`);
  }
}

/** An operation's answer says when to poll again while it works, and where (a 202: the act was accepted). */
function operationHeaders(reply: FastifyReply, op: { id: string; status: string }, status: number | undefined) {
  if (op.status === 'queued' || op.status === 'running') reply.header('retry-after', '1');
  if (status === 202) reply.header('location', `/v1/operations/${encodeURIComponent(op.id)}`);
}

function assembleInput(
  req: FastifyRequest,
  action: AnyAction,
  params: string[],
  coerce: (q: Record<string, unknown>) => Record<string, unknown>,
) {
  const http = action.http!;
  let input: Record<string, unknown>;
  if (http.upload) {
    input = uploadFields(action, req);
  } else if (http.method === 'GET' || http.method === 'DELETE') {
    input = coerce({ ...(req.query as Record<string, unknown>) });
  } else {
    const body = req.body;
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      throw new ServiceError('VALIDATION_FAILED', 'The request body must be a JSON object.');
    }
    input = { ...((body as Record<string, unknown> | undefined) ?? {}) };
  }
  // Path and headers win over body fields of the same name: the URL is the claim being made.
  for (const p of params) input[p] = (req.params as Record<string, string>)[p];
  if (action.versioned) {
    delete input.ifMatch;
    const h = req.headers['if-match'];
    if (h !== undefined) input.ifMatch = h;
  }
  if (action.keyed) {
    delete input.idempotencyKey;
    const h = req.headers['idempotency-key'];
    if (h !== undefined) input.idempotencyKey = h;
  }
  return input;
}
