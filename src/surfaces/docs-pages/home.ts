import { html } from '../share-page/html.js';
import { docsPage } from './layout.js';

/** `GET /`: what this server is and where to go: the docs, the sign-in page, the health checks. */
export function homePage(): string {
  return docsPage(
    'Studio server',
    html`<h1>Studio server</h1>
<p class="lede">Schedules, client documents, imports and procurement for an interior-design studio, for people and
their AI agents.</p>
<ul>
<li><a href="/docs">Documentation</a>: the REST reference, the action catalog and the error codes</li>
<li><a href="/login">Sign in</a>: see who you are signed in as and your studios</li>
<li><a href="/health">Health</a> (the process answers) and <a href="/health/ready">readiness</a> (the database
answers, its migrations are current, the operation workers run)</li>
</ul>
<p class="note">Agents connect over MCP at <code>/mcp</code> (OAuth) or with <code>studio mcp</code> over stdio.</p>`,
  );
}

/** `GET /docs`: the documentation's contents. */
export function docsIndexPage(): string {
  return docsPage(
    'Studio API documentation',
    html`<h1>Documentation</h1>
<ul>
<li><a href="/docs/reference">REST reference</a>: the <code>/v1</code> resource API, browsable
(<a href="/docs/openapi.json">openapi.json</a>, OpenAPI 3.1)</li>
<li><a href="/docs/actions">Action catalog</a>: every capability by domain, as MCP tools and procedures take it
(<a href="/docs/api/actions.json">actions.json</a>)</li>
<li><a href="/docs/errors">Error codes</a>: every problem's <code>code</code>, what it means and what to do next</li>
</ul>`,
  );
}
