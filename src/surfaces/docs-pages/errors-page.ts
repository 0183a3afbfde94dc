import { ERRORS_PROSE } from '../../contract/errors-doc.js';
import { ERROR_CATALOG, ERROR_CODES } from '../../core/errors.js';
import { html } from '../share-page/html.js';
import { markdownBlocks } from './inline.js';
import { docsPage } from './layout.js';

/**
 * docs/errors.md as a page, from the same source (`ERRORS_PROSE` and the catalog): each code's row carries the code as
 * its `id`, so a problem's `type`, `/docs/errors#CODE`, opens on its row.
 */
export function errorsPage(): string {
  const rows = ERROR_CODES.map((code) => {
    const e = ERROR_CATALOG[code];
    return html`<tr id="${code}"><td><code>${code}</code></td><td>${e.status}</td><td><code>${e.trpc}</code></td><td>${e.title}</td><td>${e.sentence}</td></tr>`;
  });
  return docsPage(
    'Error codes',
    html`<h1>Error codes</h1>
${markdownBlocks(ERRORS_PROSE)}
<div class="scroll"><table>
<thead><tr><th scope="col">code</th><th scope="col">HTTP status</th><th scope="col">tRPC code</th><th scope="col">title</th><th scope="col">meaning</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>`,
  );
}
