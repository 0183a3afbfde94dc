import type { FastifyInstance } from 'fastify';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { AnyAction } from '../core/define-action.js';
import type { Runtime } from '../core/invoke.js';
import { buildActionsDocument } from '../contract/actions-json.js';
import { buildOpenApiDocument } from '../contract/openapi.js';
import { canonicalJson } from '../core/canonical-json.js';
import { registerDocsPages } from './docs-pages/routes.js';

/**
 * The base URL clients reach this server at: the configured one, with the port the server listens on when it was
 * started on port 0 (any free port), so the served document names a URL that works.
 */
function baseUrl(app: FastifyInstance, rt: Runtime): string {
  const configured = rt.config.baseUrl;
  const address = app.server.address();
  return /:0$/.test(configured) && typeof address === 'object' && address
    ? configured.replace(/:0$/, `:${address.port}`)
    : configured;
}

/** The generated document as this server serves it: its own base URL in `servers`, its own docs as the contact. */
export function servedOpenApi(doc: OpenAPIObject, base: string, docsUrl: string): OpenAPIObject {
  const docs = /:0(\/|$)/.test(docsUrl) ? `${base}/docs` : docsUrl;
  return {
    ...doc,
    info: { ...doc.info, contact: { ...doc.info.contact, url: docs } },
    servers: [{ url: base, description: 'This server.' }],
  };
}

/**
 * The catalog documents, built from the same pure functions as generated/, once, on first request, and the pages that
 * show them to a person (docs-pages/).
 */
export function registerDocs(app: FastifyInstance, rt: Runtime, actions: readonly AnyAction[]) {
  let actionsJson: string | undefined;
  let openapiJson: string | undefined;
  app.get('/docs/api/actions.json', async (_req, reply) => {
    actionsJson ??= `${canonicalJson(buildActionsDocument(actions), 2)}\n`;
    return reply.type('application/json').send(actionsJson);
  });
  app.get('/docs/openapi.json', async (_req, reply) => {
    openapiJson ??= `${canonicalJson(servedOpenApi(buildOpenApiDocument(actions), baseUrl(app, rt), rt.config.docsUrl), 2)}\n`;
    return reply.type('application/json').send(openapiJson);
  });
  registerDocsPages(app, actions);
}
