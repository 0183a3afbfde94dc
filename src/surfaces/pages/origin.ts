import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';

/**
 * Where a form post says it was sent from, for every form a person posts here (the account pages, the consent pages):
 * - `foreign`: `Sec-Fetch-Site` names another site, or the `Origin` (or, when a browser sends none, the `Referer`) is
 *   not this server's: the base URL's origin, or exactly the one the request was addressed to;
 * - `own`: that origin is this server's;
 * - `unknown`: neither header was sent (not a browser, or one that says nothing).
 * Another site can make a browser post here, but not with this server's Origin. Every form refuses `unknown`: the
 * account pages (formRefusal) and the consent forms alike.
 */
export function postedFrom(config: Config, req: FastifyRequest): 'own' | 'foreign' | 'unknown' {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'foreign';
  const from = req.headers.origin ?? req.headers.referer;
  if (from === undefined) return 'unknown';
  const own = new Set([originOf(config.baseUrl), originOf(`${req.protocol}://${req.headers.host ?? ''}`)]);
  own.delete('null');
  return own.has(originOf(from)) ? 'own' : 'foreign';
}

const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : 'null');
