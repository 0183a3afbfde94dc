import { initialsOf } from '../../domain/documents/client-words.js';
import { html, type Html } from './html.js';

/**
 * The client pages' masthead in the studio's accent colour: its mark (the logo text it set, or a monogram of its
 * initials in a ring) and its name. The mark is decorative beside the name, so screen readers hear the name once.
 */
export function masthead(studioName: string, logoText: string | null | undefined): Html {
  const mark = logoText && logoText !== studioName ? logoText : null;
  return html`<header class="masthead"><div class="masthead-inner">
<span class="monogram" aria-hidden="true">${mark && [...mark].length <= 3 ? mark : initialsOf(studioName)}</span>
<p class="studio">${mark && [...mark].length > 3 ? html`<span class="wordmark">${mark}</span>` : null}<span class="studio-name">${studioName}</span></p>
</div></header>`;
}
