import { createHash } from 'node:crypto';
import { FONT_FACES, HEADING_FONT, TEXT_FONT } from '../fonts.js';

/**
 * The client pages' stylesheet: phone first (one column, 390 px and up), the piece grid (photographs, details, price)
 * from 48rem, and a print sheet (black on white, no room bar, pieces kept whole across pages). Plain CSS in one
 * <style>, allowed by its hash in the Content-Security-Policy: the page runs no script, and its only other requests
 * are its photographs and the two typefaces the server ships (fonts.ts), all to this server.
 * Text colours meet WCAG AA on their backgrounds (#1c1917 and #57534e on #fafaf9 and #ffffff: 16.9:1 and 7.2:1).
 * Every label column of a piece has one fixed width (--label), so its labels line up whatever their length.
 */
export const STYLE = `
${FONT_FACES}
:root { color-scheme: light; --accent: #1f2937; --on-accent: #ffffff; --ink: #1c1917; --muted: #57534e;
  --line: #e7e5e4; --paper: #fafaf9; --label: 7.5rem; font-family: ${TEXT_FONT}; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: var(--paper); line-height: 1.55; -webkit-text-size-adjust: 100%; }
.masthead { background: var(--accent); color: var(--on-accent); }
.masthead-inner, main, .colophon, .rooms ol { max-width: 72rem; margin: 0 auto; padding-left: 1.25rem;
  padding-right: 1.25rem; }
.masthead-inner { display: flex; align-items: center; gap: 0.875rem; padding-top: 1rem; padding-bottom: 1rem; }
.monogram { display: inline-grid; place-items: center; flex: none; width: 2.75rem; height: 2.75rem;
  border: 1.5px solid currentColor; border-radius: 50%; font-family: ${HEADING_FONT}; font-size: 1.0625rem;
  letter-spacing: 0.04em; }
.studio { margin: 0; display: grid; overflow-wrap: anywhere; }
.wordmark { font-family: ${HEADING_FONT}; font-size: 1.25rem; letter-spacing: 0.08em; text-transform: uppercase; }
.studio-name { font-size: 1rem; font-weight: 500; letter-spacing: 0.02em; }
.rooms { position: sticky; top: 0; z-index: 1; background: #fafaf9; border-bottom: 1px solid var(--line); }
.rooms ol { list-style: none; display: flex; gap: 0.25rem; overflow-x: auto; padding-top: 0.375rem;
  padding-bottom: 0.375rem; scrollbar-width: thin; }
.rooms a { display: inline-flex; align-items: center; gap: 0.5rem; min-height: 44px; padding: 0 0.875rem;
  border-radius: 999px; color: var(--ink); text-decoration: none; white-space: nowrap; font-size: 0.9375rem;
  font-weight: 500; }
.rooms a:hover { background: #efedea; }
.rooms .count { font-size: 0.8125rem; color: var(--muted); font-variant-numeric: tabular-nums; }
main { padding-top: 2.5rem; padding-bottom: 3rem; }
h1, h2 { font-family: ${HEADING_FONT}; font-weight: 500; letter-spacing: -0.005em; }
h1 { font-size: 2.125rem; line-height: 1.15; margin: 0 0 1rem; overflow-wrap: anywhere; }
p { margin: 0 0 1rem; }
.introduction { max-width: 40rem; font-size: 1.0625rem; white-space: pre-line; }
.summary-figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); gap: 1px;
  margin: 1.75rem 0 0.75rem; background: var(--line); border: 1px solid var(--line); border-radius: 10px;
  overflow: hidden; }
.summary-figures div { background: #ffffff; padding: 0.875rem 1rem; }
.summary-figures .total { grid-column: 1 / -1; }
.summary-figures dt { font-size: 0.8125rem; color: var(--muted); text-transform: uppercase; letter-spacing: 0.06em; }
.summary-figures dd { margin: 0.125rem 0 0; font-size: 1.125rem; font-weight: 600; font-variant-numeric: tabular-nums;
  overflow-wrap: anywhere; }
.note { color: var(--muted); }
.note a { color: var(--ink); }
.document-section { margin-top: 3rem; }
h2[id], h3[id] { scroll-margin-top: 4.5rem; }
.room-head, .document-section > h2 { border-bottom: 2px solid var(--accent); padding-bottom: 0.375rem;
  margin: 0 0 0.25rem; }
.room-head { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; }
h2 { font-size: 1.75rem; line-height: 1.2; margin: 0; overflow-wrap: anywhere; }
.room-count { margin: 0; color: var(--muted); font-size: 0.9375rem; white-space: nowrap; }
.pieces, .removed { list-style: none; margin: 0; padding: 0; }
.piece { padding: 1.5rem 0; border-bottom: 1px solid var(--line); }
.piece-grid { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; }
.piece-head { margin-bottom: 0.5rem; }
h3 { font-size: 1.1875rem; font-weight: 600; line-height: 1.3; margin: 0; overflow-wrap: anywhere; }
h4 { font-size: 0.9375rem; font-weight: 600; margin: 0.75rem 0 0.25rem; }
.reference { margin: 0.125rem 0 0; color: var(--muted); font-size: 0.875rem; font-variant-numeric: tabular-nums;
  letter-spacing: 0.02em; }
.description { white-space: pre-line; margin: 0 0 0.75rem; }
.details { display: grid; grid-template-columns: var(--label) minmax(0, 1fr); gap: 0.25rem 1rem; margin: 0 0 0.5rem;
  font-size: 0.9375rem; }
.details dt { color: var(--muted); }
.details dd { margin: 0; overflow-wrap: anywhere; }
.figures { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 0.25rem 1rem; align-content: start;
  margin: 0; padding-top: 0.75rem; border-top: 1px solid var(--line); font-variant-numeric: tabular-nums; }
.figures dt { color: var(--muted); }
.figures dd { margin: 0; text-align: right; white-space: nowrap; }
.figures .amount { font-size: 1.25rem; font-weight: 600; line-height: 1.35; }
.figures .state { font-weight: 600; }
.photographs { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 0.5rem; align-content: start; }
.photographs a { display: block; border-radius: 6px; overflow: hidden; background: #efedea; }
.photographs a:first-child { grid-column: 1 / -1; }
.photographs img { display: block; width: 100%; height: auto; object-fit: cover; }
.photographs a:first-child img { aspect-ratio: 4 / 3; }
.photographs a + a img { aspect-ratio: 1 / 1; }
a:focus-visible { outline: 3px solid var(--ink); outline-offset: 2px; }
.section-total { display: flex; justify-content: flex-end; align-items: baseline; gap: 1rem; margin: 1rem 0 0;
  font-weight: 600; font-variant-numeric: tabular-nums; }
.amount { font-variant-numeric: tabular-nums; }
.section-total .amount { font-size: 1.25rem; }
.removed li { padding: 0.5rem 0; border-bottom: 1px solid var(--line); }
.removed-when { color: var(--muted); }
.totals .figures { max-width: 26rem; margin-left: auto; border-top: 0; font-size: 1.0625rem; }
.totals .note { text-align: right; }
.colophon { padding-top: 1.5rem; padding-bottom: 2.5rem; border-top: 1px solid var(--line); color: var(--muted);
  font-size: 0.875rem; }
@media (min-width: 48rem) {
  :root { --label: 9rem; }
  h1 { font-size: 2.75rem; }
  .piece-grid { grid-template-columns: 16rem minmax(0, 1fr) 15rem; gap: 1.75rem;
    align-items: start; }
  .piece-grid.no-photographs { grid-template-columns: minmax(0, 1fr) 15rem; }
  .summary-figures { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .summary-figures .total { grid-column: auto; }
  .figures { border-top: 0; padding-top: 0.125rem; }
}
@media print {
  @page { margin: 16mm 14mm; }
  :root { font-size: 10pt; --label: 7rem; }
  body { background: #ffffff; color: #000000; }
  .rooms { display: none; }
  .masthead { background: none; color: #000000; border-bottom: 2pt solid var(--accent); }
  .masthead-inner, main, .colophon { max-width: none; padding-left: 0; padding-right: 0; }
  main { padding-top: 1rem; padding-bottom: 1rem; }
  h1 { font-size: 2rem; }
  .piece-grid { grid-template-columns: 4.5cm minmax(0, 1fr) 4.5cm; gap: 0.8rem;
    align-items: start; }
  .piece-grid.no-photographs { grid-template-columns: minmax(0, 1fr) 4.5cm; }
  .summary-figures { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .summary-figures .total { grid-column: auto; }
  .figures { border-top: 0; padding-top: 0; }
  .summary, .piece, .removed li, .totals { break-inside: avoid; }
  h2, h3, .room-head { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
  .reference, .details dt, .figures dt, .removed-when, .note, .colophon, .room-count,
  .summary-figures dt { color: #333333; }
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
