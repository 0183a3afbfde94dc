import { buildActionsDocument } from '../../contract/actions-json.js';
import type { AnyAction } from '../../core/define-action.js';
import { html } from '../share-page/html.js';
import { inlineMarkdown } from './inline.js';
import { docsPage } from './layout.js';

type Entry = ReturnType<typeof buildActionsDocument>['actions'][number];

/** The catalog's entries by domain, domains in name order, each domain's actions as the catalog lists them. */
export function byDomain(actions: readonly AnyAction[]): Map<string, Entry[]> {
  const domains = new Map<string, Entry[]>();
  for (const entry of buildActionsDocument(actions).actions) {
    domains.set(entry.domain, [...(domains.get(entry.domain) ?? []), entry]);
  }
  return new Map([...domains].sort(([a], [b]) => a.localeCompare(b)));
}

/** `/docs/actions`: every domain, with how many actions it has and what they are called. */
export function catalogIndexPage(domains: Map<string, Entry[]>): string {
  const total = [...domains.values()].reduce((n, list) => n + list.length, 0);
  const items = [...domains].map(
    ([domain, list]) =>
      html`<li><a href="/docs/actions/${domain}">${domain}</a> <span class="note">(${list.length}): ${list.map((e) => e.name).join(', ')}</span></li>`,
  );
  return docsPage(
    'Action catalog',
    html`<h1>Action catalog</h1>
<p class="lede">Every capability of the server (${total} actions), declared once and reachable over MCP
(<code>call_action</code> with its name), the procedure API (<code>/api/trpc/&lt;tRPC path&gt;</code>) and, for
resources, <code>/v1</code>. The same catalog as JSON, with every input and output schema:
<a href="/docs/api/actions.json">actions.json</a>.</p>
<ul>
${items}
</ul>`,
  );
}

/** One action: its texts, how it is reached, what it needs, what it can answer with, and its schemas on demand. */
function actionSection(e: Entry) {
  const route = 'http' in e && e.http ? html`<dt>HTTP</dt><dd><code>${e.http.method} ${e.http.path}</code></dd>` : null;
  const trpc = 'trpcPath' in e && e.trpcPath ? html`<dt>tRPC</dt><dd><code>${e.trpcPath}</code></dd>` : null;
  const key = 'idempotency' in e && e.idempotency ? html`<dt>Key</dt><dd><code>${e.idempotency}</code></dd>` : null;
  const version = 'versioned' in e && e.versioned ? html`<dt>Version</dt><dd><code>${e.versioned}</code></dd>` : null;
  const confirm =
    'confirmation' in e && e.confirmation
      ? html`<dt>Confirmation</dt><dd>the person agrees first (asked over MCP, else <code>confirm: true</code>)</dd>`
      : null;
  const errors = e.errors.map((code) => html`<a href="/docs/errors#${code}"><code>${code}</code></a>`);
  return html`<section id="${e.name}" aria-labelledby="${e.name}-h">
<h2 id="${e.name}-h"><code>${e.name}</code></h2>
<p><strong>${e.summary}</strong></p>
<p>${inlineMarkdown(e.description)}</p>
<dl>
<dt>Kind</dt><dd>${e.kind} (${e.effect})</dd>
<dt>Scope</dt><dd><code>${e.scope}</code></dd>
${route}${trpc}${key}${version}${confirm}
<dt>Errors</dt><dd class="codes">${errors}</dd>
</dl>
<details><summary>Input schema</summary><pre>${JSON.stringify(e.input, null, 2)}</pre></details>
<details><summary>Output schema</summary><pre>${JSON.stringify(e.output, null, 2)}</pre></details>
</section>`;
}

/** `/docs/actions/<domain>`: the domain's actions, listed first, then each in full. */
export function domainPage(domain: string, entries: Entry[]): string {
  const list = entries.map((e) => html`<li><a href="#${e.name}"><code>${e.name}</code></a>: ${e.summary}</li>`);
  return docsPage(
    `${domain}: actions`,
    html`<h1>${domain}</h1>
<p class="lede">${entries.length} actions. Schemas name shared shapes as <code>#/$defs/…</code>, defined once in
<a href="/docs/api/actions.json">actions.json</a>. <a href="/docs/actions">All domains</a>.</p>
<ul>
${list}
</ul>
${entries.map(actionSection)}`,
  );
}
