import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../core/auth.js';
import type { AnyAction } from '../core/define-action.js';
import { invoke, type Runtime } from '../core/invoke.js';
import type { StagedBlob } from '../files/blob-store.js';
import { fastifyRoute, pathParams } from '../contract/http-path.js';
import { sendProblem } from './problem.js';
import { stageUpload, uploadFields } from './rest-files.js';

/**
 * The plain-HTTP routes of file tools that take a file (ActionSpec.fileRoute): the body is the file, streamed to the
 * blob store up to the tool's own limit; the query string carries the other fields (strings); Idempotency-Key is the
 * command key. Outside `/v1`, which holds the seed's resource operations only. `invoke` decides everything else, as on
 * every surface, and failures are problem documents with the stable codes.
 */
export function registerFileRoutes(app: FastifyInstance, rt: Runtime, actions: readonly AnyAction[]) {
  for (const action of actions) {
    const route = action.fileRoute;
    if (action.kind !== 'file' || !route) continue;
    const params = pathParams(route.path);
    void app.register(async (scope) => {
      // Every media type reaches the route unparsed; the route streams it to disk.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
      scope.route({
        method: 'POST',
        url: fastifyRoute(route.path),
        bodyLimit: route.limit,
        config: { streamsBody: true },
        handler: async (req: FastifyRequest, reply: FastifyReply) => {
          let upload: StagedBlob | undefined;
          try {
            upload = await stageUpload(rt, req, reply, route.limit);
            const input: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
            delete input[route.upload.field];
            Object.assign(input, uploadFields(action, req));
            for (const p of params) input[p] = (req.params as Record<string, string>)[p];
            const key = req.headers['idempotency-key'];
            delete input.commandKey;
            if (key !== undefined) input.commandKey = key;
            const output = await invoke(rt, action, input, {
              caller: req.caller ?? undefined,
              token: bearerToken(req.headers.authorization),
              requestId: req.id,
              upload,
            });
            return reply.code(201).type('application/json').send(output);
          } catch (err) {
            return sendProblem(reply, err, req.id);
          } finally {
            if (upload) await rt.files.discard(upload);
          }
        },
      });
    });
  }
}
