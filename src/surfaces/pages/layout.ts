import type { FastifyReply } from 'fastify';
import { Html, html } from '../share-page/html.js';
import { styleHash } from '../share-page/style.js';

/**
 * The one stylesheet of every page a person signs in on: `/login`, an invitation's page and the OAuth consent pages.
 * A single narrow column that reads on a phone, plain controls with visible focus. Allowed by its hash in the
 * Content-Security-Policy; the pages run no script and load nothing from elsewhere. Text colours meet WCAG AA on their
 * backgrounds (#1f2937 on #fafaf9 14.1:1; #4b5563 7.2:1; #7f1d1d on #fef2f2 9.6:1; #1d4ed8 6.5:1; white on #1f2937
 * 14.7:1; input borders #6b7280 and the focus ring #2563eb over 3:1).
 */
const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; color: #1f2937; background: #fafaf9; line-height: 1.5; }
main { max-width: 36rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
.eyebrow { margin: 0 0 0.5rem; color: #4b5563; font-size: 0.875rem; overflow-wrap: anywhere; }
h1 { font-size: 1.5rem; line-height: 1.25; font-weight: 600; margin: 0 0 1rem; overflow-wrap: anywhere; }
p { margin: 0 0 1rem; }
.note { color: #4b5563; font-size: 0.9375rem; }
.hint { font-weight: 400; color: #4b5563; font-size: 0.875rem; }
.problem { padding: 0.75rem 1rem; border-left: 4px solid #b91c1c; background: #fef2f2; color: #7f1d1d; }
form { display: grid; gap: 1rem; margin: 1.5rem 0; }
form.aside { margin: -0.5rem 0 1rem; }
label { display: grid; gap: 0.25rem; font-weight: 600; }
input[type="email"], input[type="password"], input[type="text"] { font: inherit; padding: 0.625rem 0.75rem;
  border: 1px solid #6b7280; border-radius: 6px; background: #ffffff; color: inherit; }
fieldset { border: 1px solid #d6d3d1; border-radius: 8px; margin: 0; padding: 0.75rem 1rem 1rem; }
legend { font-weight: 600; padding: 0 0.25rem; }
.choice { display: grid; grid-template-columns: auto 1fr; gap: 0.5rem; align-items: start; margin-top: 0.75rem; }
.choice input { margin: 0.3rem 0 0; width: 1.125rem; height: 1.125rem; }
.choice label { display: block; font-weight: 400; }
.choice .name { font-weight: 600; overflow-wrap: anywhere; }
.choice .about { display: block; color: #4b5563; font-size: 0.9375rem; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9375rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
button { font: inherit; font-weight: 600; padding: 0.625rem 1.25rem; border-radius: 6px; cursor: pointer;
  border: 2px solid #1f2937; background: #1f2937; color: #ffffff; }
button.secondary { background: #ffffff; color: #1f2937; }
button.link { justify-self: start; padding: 0; border: 0; background: none; color: #1d4ed8; font-weight: 400;
  font-size: 0.9375rem; text-decoration: underline; }
input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
.fixed, strong { font-weight: 600; overflow-wrap: anywhere; }
.studios { padding-left: 1.25rem; }
`;

/**
 * Headers of every such page. Script-free (no script source at all), nothing loaded from elsewhere, never framed
 * (`frame-ancestors 'none'` and X-Frame-Options), never indexed or cached (a page may show who is signed in). Forms post
 * only to this server, save the consent page's decision, which ends in a redirect to the client: `formTarget` names
 * that one address too. `Referrer-Policy: same-origin` keeps the page's address (an invitation's token, an
 * authorization request's state) from other sites, and is not `no-referrer`, under which browsers send `Origin: null`
 * with the page's own form posts, and the Origin check needs the real one.
 */
export function pageHeaders(formTarget?: string): Record<string, string> {
  const formAction = ["'self'", ...(formTarget ? [formTarget] : [])].join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src ${styleHash(STYLE)}; img-src data:; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`,
    'referrer-policy': 'same-origin',
    'x-robots-tag': 'noindex, nofollow',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

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

/** Answers a page: its status, its headers (pageHeaders, with `formTarget`), and the page around `body`. */
export function sendPage(reply: FastifyReply, status: number, title: string, body: Html, formTarget?: string) {
  return reply.headers(pageHeaders(formTarget)).code(status).send(layout(title, body));
}

/**
 * A problem the person can act on, announced to screen readers as soon as the page loads; with an `id`, so a field
 * can name it as its description.
 */
export const problem = (text: string | undefined, id?: string) =>
  text === undefined ? null : html`<p class="problem" role="alert"${id ? html` id="${id}"` : null}>${text}</p>`;
