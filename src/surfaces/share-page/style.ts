import { createHash } from 'node:crypto';

/**
 * The client page's stylesheet: phone first (one column, 390 px and up), two columns per piece from 48rem, and a print
 * sheet (black on white, no backgrounds or link styling, pieces kept whole across pages). Plain CSS in one <style>,
 * allowed by its hash in the Content-Security-Policy: the page runs no script and loads nothing from elsewhere.
 * Text colours meet WCAG AA on their backgrounds (#1f2937 and #4b5563 on #fafaf9: 14.5:1 and 7.3:1).
 */
export const STYLE = `
:root { color-scheme: light; --accent: #1f2937; --on-accent: #ffffff;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; color: #1f2937; background: #fafaf9; line-height: 1.5; }
.masthead { background: var(--accent); color: var(--on-accent); }
.masthead-inner, main, .colophon { max-width: 64rem; margin: 0 auto; padding-left: 1.25rem; padding-right: 1.25rem; }
.masthead-inner { padding-top: 1rem; padding-bottom: 1rem; }
.studio { margin: 0; font-size: 1.125rem; font-weight: 600; letter-spacing: 0.02em; overflow-wrap: anywhere; }
.studio-name { display: block; font-size: 0.875rem; font-weight: 400; letter-spacing: 0; }
main { padding-top: 2rem; padding-bottom: 3rem; }
h1 { font-size: 1.75rem; line-height: 1.2; font-weight: 600; margin: 0 0 1rem; overflow-wrap: anywhere; }
p { margin: 0 0 1rem; }
.introduction { max-width: 42rem; font-size: 1.0625rem; white-space: pre-line; }
.document-section { margin-top: 2.5rem; }
h2 { font-size: 1.375rem; font-weight: 600; margin: 0 0 0.5rem; padding-bottom: 0.25rem;
  border-bottom: 3px solid var(--accent); overflow-wrap: anywhere; }
.pieces, .removed { list-style: none; margin: 0; padding: 0; }
.piece { padding: 1.25rem 0; border-bottom: 1px solid #e7e5e4; }
.piece-head { margin-bottom: 0.75rem; }
h3 { font-size: 1.125rem; font-weight: 600; margin: 0; overflow-wrap: anywhere; }
.reference { margin: 0; color: #4b5563; font-size: 0.875rem; font-variant-numeric: tabular-nums; }
.photographs { display: grid; grid-template-columns: repeat(4, 1fr); gap: 0.5rem; margin-bottom: 0.75rem; }
.photographs a { display: block; border-radius: 4px; }
.photographs a:first-child { grid-column: 1 / -1; }
.photographs img { display: block; border-radius: 4px; background: #e7e5e4; }
.photographs a:first-child img { width: auto; height: auto; max-width: 100%; max-height: 28rem; }
.photographs a + a img { width: 100%; height: auto; aspect-ratio: 1 / 1; object-fit: cover; }
a:focus-visible { outline: 3px solid #1f2937; outline-offset: 2px; }
.description { white-space: pre-line; }
.facts, .figures { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0 0 0.75rem; }
.facts dt, .figures dt { color: #4b5563; }
.facts dd, .figures dd { margin: 0; overflow-wrap: anywhere; }
.figures dd { font-variant-numeric: tabular-nums; }
.section-total { margin: 0.75rem 0 0; text-align: right; font-weight: 600; font-variant-numeric: tabular-nums; }
.removed li { padding: 0.5rem 0; border-bottom: 1px solid #e7e5e4; }
.removed-when { color: #4b5563; }
.totals .figures { font-size: 1.0625rem; }
.note { color: #4b5563; }
.colophon { padding-top: 1.5rem; padding-bottom: 2.5rem; border-top: 1px solid #e7e5e4; color: #4b5563;
  font-size: 0.875rem; }
@media (min-width: 48rem) {
  h1 { font-size: 2.25rem; }
  .piece-grid { display: grid; grid-template-columns: 18rem 1fr; gap: 1.5rem; align-items: start; }
  .piece-grid .photographs { margin-bottom: 0; }
}
@media print {
  @page { margin: 16mm 14mm; }
  :root { font-size: 10.5pt; }
  body { background: #ffffff; color: #000000; }
  .masthead { background: none; color: #000000; border-bottom: 2pt solid var(--accent); }
  .masthead-inner, main, .colophon { max-width: none; padding-left: 0; padding-right: 0; }
  main { padding-top: 1rem; padding-bottom: 1rem; }
  .piece-grid { display: grid; grid-template-columns: 5cm 1fr; gap: 1rem; align-items: start; }
  .photographs a:first-child img { max-height: 7cm; }
  .piece, .removed li, .totals { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
  .reference, .facts dt, .figures dt, .removed-when, .note, .colophon { color: #333333; }
}
`;

/** A CSP source naming exactly this stylesheet text. */
export const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

export const STYLE_HASH = styleHash(STYLE);

const HEX = /^#[0-9a-f]{6}$/i;

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

const LIGHT = '#ffffff';
const DARK = '#111827';

/**
 * The studio's accent colour as the page's second stylesheet: the masthead in the accent, its text white or near
 * black, whichever reads better on it (so any accent a studio picks keeps the studio's name legible). A colour that is
 * not #rrggbb (settings only take that form) leaves the default.
 */
export function accentStyle(accent: string): string {
  if (!HEX.test(accent)) return ':root { }';
  const colour = accent.toLowerCase();
  const onAccent = contrast(colour, LIGHT) >= contrast(colour, DARK) ? LIGHT : DARK;
  return `:root { --accent: ${colour}; --on-accent: ${onAccent}; }`;
}
