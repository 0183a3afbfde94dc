import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { projectRoot } from '../../config.js';
import { html } from '../share-page/html.js';
import { sendDocsPage } from './layout.js';

/** Where `npm run build` leaves Redoc's page of the OpenAPI document (scripts/api-reference.mjs). */
export const REFERENCE_FILE = resolve(projectRoot(), 'dist/docs/api-reference.html');

interface Reference {
  csp: string;
  plain: Buffer;
  gzipped: Buffer;
  etag: string;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page's policy: its own inline scripts by their hashes (Redoc's, inlined at build time) and nothing else runs;
 * nothing is fetched from another site. Styles are the one exception to the other pages' hashes: Redoc's
 * styled-components write style elements while the page runs, so `style-src` is `'unsafe-inline'` here (a style
 * cannot run code, and the page shows only the server's own document).
 */
function policy(page: string): string {
  const scripts = [...page.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => sha256(m[1]!));
  return `default-src 'none'; script-src ${scripts.join(' ')}; style-src 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/** The built page, read once (2.7 MB, some 700 KB gzipped), or undefined when this server was not built. */
function loadReference(file: string): Reference | undefined {
  if (!existsSync(file)) return undefined;
  const plain = readFileSync(file);
  const page = plain.toString('utf8');
  return {
    csp: policy(page),
    plain,
    gzipped: gzipSync(plain, { level: 9 }),
    etag: `"${createHash('sha256').update(plain).digest('base64url').slice(0, 22)}"`,
  };
}

/** `/docs/reference`: Redoc's page when built; otherwise a page saying how to make it and where the document is. */
export function referenceRoute(file = REFERENCE_FILE) {
  let reference: Reference | undefined;
  return async (req: FastifyRequest, reply: FastifyReply) => {
    reference ??= loadReference(file);
    if (!reference) {
      return sendDocsPage(
        reply,
        404,
        'REST reference',
        html`<h1>REST reference</h1><p>The browsable reference is made by <code>npm run build</code>; this server runs
without it. The document itself is <a href="/docs/openapi.json">openapi.json</a>.</p>`,
      );
    }
    reply.headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': reference.csp,
      'referrer-policy': 'same-origin',
      'x-robots-tag': 'noindex, nofollow',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      etag: reference.etag,
      vary: 'accept-encoding',
    });
    if (req.headers['if-none-match'] === reference.etag) return reply.code(304).send();
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      return reply.header('content-encoding', 'gzip').send(reference.gzipped);
    }
    return reply.send(reference.plain);
  };
}
