import type { FastifyInstance } from 'fastify';
import type { AnyAction } from '../core/define-action.js';
import type { Runtime } from '../core/invoke.js';
import { buildActionsDocument } from '../contract/actions-json.js';
import { buildOpenApiDocument } from '../contract/openapi.js';
import { canonicalJson } from '../core/canonical-json.js';

/** The catalog documents, built from the same pure functions as generated/, once, on first request. */
export function registerDocs(app: FastifyInstance, rt: Runtime, actions: readonly AnyAction[]) {
  let actionsJson: string | undefined;
  let openapiJson: string | undefined;
  app.get('/docs/api/actions.json', async (_req, reply) => {
    actionsJson ??= `${canonicalJson(buildActionsDocument(actions), 2)}\n`;
    return reply.type('application/json').send(actionsJson);
  });
  app.get('/docs/openapi.json', async (_req, reply) => {
    openapiJson ??= `${canonicalJson({ ...buildOpenApiDocument(actions), servers: [{ url: rt.config.baseUrl }] }, 2)}\n`;
    return reply.type('application/json').send(openapiJson);
  });
  app.get('/docs', async (_req, reply) =>
    reply.type('text/html').send(`<!doctype html><meta charset="utf-8"><title>Studio API</title>
<h1>Studio API</h1>
<ul>
<li><a href="/docs/api/actions.json">actions.json</a>: every capability, with input and output JSON Schema</li>
<li><a href="/docs/openapi.json">openapi.json</a>: the /v1 resource API (OpenAPI 3.1)</li>
</ul>`),
  );
}
