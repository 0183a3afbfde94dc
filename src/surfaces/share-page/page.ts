import { createHash } from 'node:crypto';
import { Html, html } from './html.js';

/**
 * The client's page of a share link. For now a landing: the studio's name and a placeholder where the client
 * document (sections, pieces, photographs) will be rendered once it lands. No scripts: the page is plain HTML with one
 * stylesheet, allowed by its hash in the Content-Security-Policy.
 */
const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; color: #1f2937; background: #fafaf9; line-height: 1.5; }
main { max-width: 48rem; margin: 0 auto; padding: 2.5rem 1.25rem; }
h1 { font-size: 1.75rem; font-weight: 600; margin: 0 0 1rem; overflow-wrap: anywhere; }
p { margin: 0 0 1rem; font-size: 1.0625rem; }
`;

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * Headers every answer of `/s/…` carries: no scripts or outside resources (CSP; `data:` images only for the empty
 * icon, which spares the browser a request for /favicon.ico), the token in the URL never leaves in
 * a Referer, the page is never indexed or framed, and no cache keeps a copy (a revoked link must stop showing).
 */
export const SHARE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

function layout(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
${body}
</body>
</html>
`.value;
}

/** The page of a live share: whose link it is, and where the schedule will be. */
export function sharePage(facts: { studioName: string }): string {
  return layout(
    `${facts.studioName} · Schedule`,
    html`<main>
<h1>${facts.studioName}</h1>
<p>The schedule will appear here.</p>
</main>`,
  );
}

/** One page for every link that does not work (unknown, revoked, expired, malformed): it never says which. */
export const UNAVAILABLE_PAGE = layout(
  'Link unavailable',
  html`<main>
<h1>This link is no longer available</h1>
<p>Ask the studio that sent it for a new link.</p>
</main>`,
);
