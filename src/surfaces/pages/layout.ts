import type { FastifyReply } from 'fastify';
import { Html, html } from '../share-page/html.js';
import { styleHash } from '../share-page/style.js';

/**
 * The account pages' one stylesheet (sign-in, an invitation's page): a single narrow column that reads on a phone.
 * Allowed by its hash in the Content-Security-Policy; the pages run no script and load nothing from elsewhere.
 * Text colours meet WCAG AA on their backgrounds.
 */
const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; color: #1f2937; background: #fafaf9; line-height: 1.5; }
main { max-width: 28rem; margin: 0 auto; padding: 3rem 1.25rem; }
h1 { font-size: 1.5rem; line-height: 1.25; font-weight: 600; margin: 0 0 1rem; overflow-wrap: anywhere; }
p { margin: 0 0 1rem; }
form { display: grid; gap: 1rem; margin: 1.5rem 0; }
label { display: grid; gap: 0.25rem; font-weight: 600; }
.hint { font-weight: 400; color: #4b5563; font-size: 0.875rem; }
input { font: inherit; padding: 0.625rem 0.75rem; border: 1px solid #6b7280; border-radius: 6px; background: #ffffff;
  color: inherit; }
button { font: inherit; font-weight: 600; padding: 0.625rem 1rem; border: 0; border-radius: 6px; background: #1f2937;
  color: #ffffff; cursor: pointer; }
input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid #1f2937; outline-offset: 2px; }
.problem { padding: 0.75rem 1rem; border-left: 4px solid #b91c1c; background: #fef2f2; color: #7f1d1d; }
.fixed { font-weight: 600; overflow-wrap: anywhere; }
.studios { padding-left: 1.25rem; }
`;

/** Script-free: no script source at all, forms only to this server, never framed. */
const CSP = `default-src 'none'; style-src ${styleHash(STYLE)}; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;

/**
 * Headers of every account page: the CSP above; a Referer only to this server (an invitation's token is in its URL;
 * `same-origin` rather than `no-referrer`, because under `no-referrer` browsers send `Origin: null` with the page's own
 * form posts, and the Origin check needs the real one); never indexed, framed or cached (a page may show who is
 * signed in).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CSP,
  'referrer-policy': 'same-origin',
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
<meta name="referrer" content="same-origin">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`.value;
}

/** Answers an account page: its status, its headers, and the page around `body`. */
export function sendPage(reply: FastifyReply, status: number, title: string, body: Html) {
  return reply.headers(PAGE_HEADERS).code(status).send(layout(title, body));
}

/** A problem the person can act on, announced to screen readers as soon as the page loads. */
export const problem = (text: string | undefined) =>
  text === undefined ? null : html`<p class="problem" role="alert">${text}</p>`;
