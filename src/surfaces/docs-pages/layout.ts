import type { FastifyReply } from 'fastify';
import { Html, html } from '../share-page/html.js';
import { styleHash } from '../share-page/style.js';

/**
 * The stylesheet of the documentation pages (`/`, `/docs`, the catalog, the error codes): a readable column, wide
 * tables that scroll on their own rather than the page, and the row or section a link points at marked. Colours are the
 * account pages' (WCAG AA: #1f2937 on #fafaf9 14.1:1, #4b5563 7.2:1, links #1d4ed8 6.5:1; on the marked row's
 * #fef9c3, #1f2937 13.4:1). Allowed by its hash; these pages run no script and load nothing from elsewhere.
 */
const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; color: #1f2937; background: #fafaf9; line-height: 1.5; }
header, main { max-width: 64rem; margin: 0 auto; padding: 0 1.25rem; }
header { padding-top: 1rem; padding-bottom: 1rem; border-bottom: 1px solid #d6d3d1; }
header nav { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; }
main { padding-top: 1.5rem; padding-bottom: 3rem; }
a { color: #1d4ed8; }
a:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
h1 { font-size: 1.75rem; line-height: 1.2; font-weight: 600; margin: 0 0 1rem; }
h2 { font-size: 1.25rem; font-weight: 600; margin: 2rem 0 0.5rem; overflow-wrap: anywhere; }
p, ul, dl { margin: 0 0 1rem; }
.lede { max-width: 44rem; font-size: 1.0625rem; }
.note { color: #4b5563; font-size: 0.9375rem; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.875rem; }
code { overflow-wrap: anywhere; }
td:first-child code { overflow-wrap: normal; white-space: nowrap; }
pre { overflow-x: auto; padding: 0.75rem; background: #f5f5f4; border: 1px solid #e7e5e4; border-radius: 6px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 0.9375rem; }
th, td { text-align: left; vertical-align: top; padding: 0.5rem; border-bottom: 1px solid #e7e5e4; }
th { font-weight: 600; }
tr:target, section:target { background: #fef9c3; }
section { padding: 0.25rem 0.5rem; margin: 0 -0.5rem; border-radius: 6px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
.codes { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; }
`;

const NAV = html`<header><nav aria-label="Documentation">
<a href="/">Studio server</a>
<a href="/docs">Docs</a>
<a href="/docs/reference">REST reference</a>
<a href="/docs/actions">Action catalog</a>
<a href="/docs/errors">Error codes</a>
</nav></header>`;

/**
 * Headers of every documentation page: no script at all, the stylesheet by its hash, nothing from elsewhere, never
 * framed, not indexed (a studio's server is nobody's search result). Cached only after asking again (`no-cache`):
 * the catalog changes with the server.
 */
export function docsHeaders(): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src ${styleHash(STYLE)}; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'referrer-policy': 'same-origin',
    'x-robots-tag': 'noindex, nofollow',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

/** A documentation page: the navigation, then `body` in the page's one `<main>`. */
export function docsPage(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
${NAV}
<main>
${body}
</main>
</body>
</html>
`.value;
}

export function sendDocsPage(reply: FastifyReply, status: number, title: string, body: Html) {
  return reply.headers(docsHeaders()).code(status).send(docsPage(title, body));
}
