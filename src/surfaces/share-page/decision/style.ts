import { styleHash } from '../style.js';

/**
 * The decision page's own stylesheet, beside the share page's: the pieces as a list with their figures, the answer
 * per piece as two large radio buttons (44 px targets on a phone), the forms and the notices. Print shows the revision
 * and the decision, never the forms.
 */
export const DECISION_STYLE = `
.offer { list-style: none; margin: 0; padding: 0; }
.piece-answer { grid-column: 1 / -1; }
.piece-answer .outcome, .piece-answer .answer { margin: 0; }
.figures .outside { color: var(--muted); font-size: 0.875rem; }
.title-block .reference { margin-bottom: 1rem; }
.answer { display: flex; gap: 0.5rem; flex-wrap: wrap; margin-top: 0.5rem; border: 0; padding: 0; }
.answer label { display: inline-flex; align-items: center; gap: 0.5rem; min-height: 44px; padding: 0.25rem 0.875rem;
  border: 1px solid #a8a29e; border-radius: 6px; background: #ffffff; cursor: pointer; }
.answer input { width: 1.25rem; height: 1.25rem; margin: 0; }
.answer label:has(input:checked) { border-color: var(--accent); box-shadow: inset 0 0 0 1px var(--accent); }
.outcome { font-weight: 600; }
.outcome-declined { color: #9f1239; }
.panel { margin-top: 2rem; padding: 1.25rem; border: 1px solid #d6d3d1; border-radius: 8px; background: #ffffff; }
.panel h2 { border-bottom: 0; padding-bottom: 0; }
.form-row { display: grid; gap: 0.25rem; margin-bottom: 1rem; }
.form-row input, .form-row textarea { font: inherit; padding: 0.625rem 0.75rem; border: 1px solid #a8a29e;
  border-radius: 6px; min-height: 44px; width: 100%; max-width: 28rem; }
.form-row textarea { min-height: 6rem; max-width: 42rem; }
.code-input { letter-spacing: 0.3em; font-variant-numeric: tabular-nums; max-width: 12rem !important; }
.buttons { display: flex; gap: 0.75rem; flex-wrap: wrap; }
button { font: inherit; min-height: 44px; padding: 0.5rem 1.25rem; border-radius: 6px; cursor: pointer;
  border: 1px solid var(--accent); background: var(--accent); color: var(--on-accent); }
button.secondary { background: #ffffff; color: #1f2937; border-color: #a8a29e; }
button:focus-visible, input:focus-visible, textarea:focus-visible { outline: 3px solid #1f2937; outline-offset: 2px; }
.alert { padding: 0.75rem 1rem; border-left: 4px solid #9f1239; background: #fff1f2; margin-bottom: 1rem; }
.info { padding: 0.75rem 1rem; border-left: 4px solid var(--accent); background: #f5f5f4; margin-bottom: 1rem; }
.running { font-size: 1.0625rem; max-width: 26rem; border-top: 0; margin-bottom: 1rem; }
.panel .figures dd { text-align: right; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (min-width: 48rem) {
  .offer .figures { grid-row: span 2; }
  .piece-answer { grid-column: 1; align-self: start; }
}
@media print {
  form, .panel form, .buttons, .answer { display: none !important; }
  .panel { border: 0; padding: 0; }
}
`;

export const DECISION_STYLE_HASH = styleHash(DECISION_STYLE);
