import { styleHash } from '../share-page/style.js';

/**
 * The consent pages' stylesheet: one narrow column that reads on a phone, plain controls with visible focus, and text
 * colours that meet WCAG AA on their backgrounds (#1f2937 on #fafaf9 14.1:1; #4b5563 7.2:1; #991b1b 8.0:1; white on
 * #1f2937 14.7:1; input borders #6b7280 and the focus ring #2563eb over 3:1). Allowed by its hash in the
 * Content-Security-Policy: the pages run no script.
 */
export const CONSENT_STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; color: #1f2937; background: #fafaf9; line-height: 1.5; }
main { max-width: 36rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
.eyebrow { margin: 0 0 0.5rem; color: #4b5563; font-size: 0.875rem; overflow-wrap: anywhere; }
h1 { font-size: 1.5rem; line-height: 1.25; font-weight: 600; margin: 0 0 1rem; overflow-wrap: anywhere; }
p { margin: 0 0 1rem; }
.note { color: #4b5563; font-size: 0.9375rem; }
.error { color: #991b1b; font-weight: 600; border-left: 4px solid #991b1b; padding-left: 0.75rem; }
form { margin: 1.5rem 0; }
label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
input[type="email"], input[type="password"] { display: block; width: 100%; font: inherit; padding: 0.625rem 0.75rem;
  border: 1px solid #6b7280; border-radius: 6px; background: #ffffff; color: #1f2937; }
fieldset { border: 1px solid #d6d3d1; border-radius: 8px; margin: 0 0 1.25rem; padding: 0.75rem 1rem 1rem; }
legend { font-weight: 600; padding: 0 0.25rem; }
.choice { display: grid; grid-template-columns: auto 1fr; gap: 0.5rem; align-items: start; margin-top: 0.75rem; }
.choice input { margin: 0.3rem 0 0; width: 1.125rem; height: 1.125rem; }
.choice label { margin: 0; font-weight: 400; }
.choice .name { font-weight: 600; overflow-wrap: anywhere; }
.choice .about { display: block; color: #4b5563; font-size: 0.9375rem; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9375rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.5rem; }
button { font: inherit; font-weight: 600; padding: 0.625rem 1.25rem; border-radius: 6px; cursor: pointer;
  border: 2px solid #1f2937; background: #1f2937; color: #ffffff; }
button.secondary { background: #ffffff; color: #1f2937; }
input:focus-visible, button:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
strong { overflow-wrap: anywhere; }
`;

export const CONSENT_STYLE_HASH = styleHash(CONSENT_STYLE);
