import type { SharedClientDocument } from '../../domain/shares/shared-document.js';
import { documentBody } from './document.js';
import { Html, html } from './html.js';
import { accentStyle, STYLE, STYLE_HASH, styleHash } from './style.js';

/**
 * The client's page of a share link: the shared document as plain HTML, no scripts. Its stylesheets are allowed by
 * their hashes in the Content-Security-Policy, and its images and fonts come from this server only (the photograph URLs
 * of the same link, the typefaces it ships; `data:` only for the empty icon, which spares a request for /favicon.ico).
 */
export const csp = (styleSources: string, formAction = "'none'") =>
  `default-src 'none'; style-src ${styleSources}; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`;

/**
 * Headers every answer of `/s/…` carries: no scripts or outside resources (CSP), the token in the URL never leaves in
 * a Referer, the page is never indexed or framed, and no cache keeps a copy (a revoked link must stop showing).
 */
export const SHARE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': csp(STYLE_HASH),
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** A page of the share link: the shared stylesheet, one more of its own (by hash in the CSP too), and its body. */
export function layout(title: string, body: Html, extraStyle?: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${new Html(STYLE)}</style>
${extraStyle === undefined ? null : html`<style>${new Html(extraStyle)}</style>`}
</head>
<body>
${body}
</body>
</html>
`.value;
}

/** The page of a live share, and its headers: the CSP names its accent stylesheet too, which differs per studio. */
export function documentPage(shared: SharedClientDocument): { body: string; headers: Record<string, string> } {
  const accent = accentStyle(shared.document.branding.accentColour);
  return {
    body: layout(`${shared.document.title} · ${shared.document.studioName}`, documentBody(shared), accent),
    headers: { ...SHARE_PAGE_HEADERS, 'content-security-policy': csp(`${STYLE_HASH} ${styleHash(accent)}`) },
  };
}

/** A page of one heading and one sentence, for the answers that are not the document. */
const notice = (heading: string, sentence: string) =>
  layout(
    heading,
    html`<main>
<h1>${heading}</h1>
<p>${sentence}</p>
</main>`,
  );

/** One page for every link that does not work (unknown, revoked, expired, malformed): it never says which. */
export const UNAVAILABLE_PAGE = notice(
  'This link is no longer available',
  'Ask the studio that sent it for a new link.',
);

/** A failure of the server's own, not of the link. */
export const FAILED_PAGE = notice('This page could not be shown just now', 'Please try again in a moment.');

/** A photograph URL of a working link that names no photograph the document shows. */
export const NO_PHOTOGRAPH_PAGE = notice(
  'This photograph is not part of the document',
  'Open the link itself to see the photographs it shows.',
);
