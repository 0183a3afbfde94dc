/**
 * Bundles the built CLI and every pure-JS dependency into one file, dist/studio.mjs, which `npm start`, `mcp.json` and
 * the tests run. Why: an MCP client starts the stdio server for every session, and loading ~540 separate ES modules
 * (kysely, zod, the MCP SDK …) took most of a 340 ms cold start; one file starts in about 200 ms. better-sqlite3 stays
 * external: it is a native addon. The document libraries stay external too, loaded from node_modules on first use
 * (dynamic import): they are large, a server that makes no document never loads them, and pdfkit reads its own data
 * files from beside its module (which a bundle would move away from them).
 *
 * The bundle is split where the CLI imports a command's module on demand (esbuild `splitting`): dist/studio.mjs is the
 * entry, and chunks dist/studio-<hash>.mjs sit beside it (same folder, so paths found from import.meta.url are the
 * same). V8 compiles only the chunks a command loads: `studio mcp` never parses the HTTP server (fastify, the pages),
 * and the catalog's chunks only once it imports them (src/surfaces/mcp/catalog-source.ts).
 *
 * The migrations are not in the bundle: the runner finds them by listing a folder (db/migration-files.ts), so each is
 * compiled to its own module in dist/migrations/, beside the bundle, where the runner looks from there. Every file of
 * db/migrations/ whose name starts with a digit goes, even a misnamed one, so the runner refuses the same folder from
 * the bundle as from source.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// The MCP tools/list answer of this very build (tsc's output of the same sources), carried by the bundle so that
// `studio mcp` answers the handshake before importing the catalog (src/surfaces/mcp/prebuilt-tools.ts).
const { ACTIONS } = await import('../dist/actions/index.js');
const { buildToolList } = await import('../dist/src/surfaces/mcp/tools.js');
const prebuiltTools = JSON.stringify(buildToolList(ACTIONS));

for (const f of readdirSync('dist')) if (/^studio-.*\.mjs$/.test(f)) rmSync(`dist/${f}`);
await build({
  entryPoints: { studio: 'dist/src/cli.js' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'studio-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3', 'pdfkit', 'exceljs', 'nodemailer', 'yazl', 'dejavu-fonts-ttf'],
  plugins: [
    {
      name: 'prebuilt-tools',
      setup(b) {
        b.onLoad({ filter: /surfaces[\\/]mcp[\\/]prebuilt-tools\.js$/ }, () => ({
          contents: `export const prebuiltTools = ${prebuiltTools};`,
        }));
      },
    },
  ],
  // Bundled CommonJS dependencies call require(); give the ES module output one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

// V8 keeps a script's source for as long as the server runs (lazy compilation reads it), as one-byte Latin-1 only when
// every character is Latin-1: a few dependency comments and regexes with characters beyond it made all 5.7 MB two-byte,
// 11 MB of heap. Escaped as \uXXXX they mean the same in strings, templates, regexes and identifiers (and nothing in
// comments); only a tagged template's raw text would see the difference, and the bundle's (html``) read cooked text.
for (const file of readdirSync('dist').filter((f) => /^studio(-.*)?\.mjs$/.test(f))) {
  const bundled = readFileSync(`dist/${file}`, 'utf8');
  // An escaped character (`\–` in a regex) would become an escaped backslash: none today, and a build with one stops.
  if (/\\[\u0080-\uffff]/.test(bundled)) throw new Error(`dist/${file}: a backslash before a non-ASCII character`);
  writeFileSync(
    `dist/${file}`,
    bundled.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

rmSync('dist/migrations', { recursive: true, force: true });
await build({
  entryPoints: readdirSync('db/migrations')
    .filter((f) => /^\d.*\.ts$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => `db/migrations/${f}`),
  outdir: 'dist/migrations',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});

await import('./api-reference.mjs');
