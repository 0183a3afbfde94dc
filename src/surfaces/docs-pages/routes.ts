import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AnyAction } from '../../core/define-action.js';
import { ServiceError } from '../../core/errors.js';
import { byDomain, catalogIndexPage, domainPage } from './catalog-pages.js';
import { errorsPage } from './errors-page.js';
import { docsIndexPage, homePage } from './home.js';
import { docsHeaders } from './layout.js';
import { referenceRoute } from './reference.js';

/**
 * The pages a person reads: `/`, `/docs`, `/docs/reference` (Redoc's page of the OpenAPI document), `/docs/actions`
 * and one page per domain, `/docs/errors` (where every problem's `type` points). Each is made once, on first request:
 * they depend on the catalog only.
 */
export function registerDocsPages(app: FastifyInstance, actions: readonly AnyAction[]) {
  const once = (make: () => string) => {
    let page: string | undefined;
    return async (_req: unknown, reply: FastifyReply) => reply.headers(docsHeaders()).send((page ??= make()));
  };
  let domains: ReturnType<typeof byDomain> | undefined;
  const catalog = () => (domains ??= byDomain(actions));
  const pages = new Map<string, string>();
  app.get('/', once(homePage));
  app.get('/docs', once(docsIndexPage));
  app.get('/docs/errors', once(errorsPage));
  app.get('/docs/reference', referenceRoute());
  app.get(
    '/docs/actions',
    once(() => catalogIndexPage(catalog())),
  );
  app.get<{ Params: { domain: string } }>('/docs/actions/:domain', async (req, reply) => {
    const entries = catalog().get(req.params.domain);
    if (!entries) {
      throw new ServiceError('NOT_FOUND', `No domain is named ${req.params.domain}; /docs/actions lists them all.`);
    }
    let page = pages.get(req.params.domain);
    if (!page) pages.set(req.params.domain, (page = domainPage(req.params.domain, entries)));
    return reply.headers(docsHeaders()).send(page);
  });
}
