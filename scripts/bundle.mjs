/**
 * Bundles the built CLI and every pure-JS dependency into one file, dist/studio.mjs, which `npm start`, `mcp.json` and
 * the tests run. Why: an MCP client starts the stdio server for every session, and loading ~540 separate ES modules
 * (kysely, zod, the MCP SDK …) took most of a 340 ms cold start; one file starts in about 200 ms. better-sqlite3 stays
 * external: it is a native addon. The document libraries stay external too, loaded from node_modules on first use
 * (dynamic import): they are large, a server that makes no document never loads them, and pdfkit reads its own data
 * files from beside its module (which a bundle would move away from them).
 */
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/src/cli.js'],
  outfile: 'dist/studio.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3', 'pdfkit', 'exceljs', 'nodemailer', 'yazl', 'dejavu-fonts-ttf'],
  // Bundled CommonJS dependencies call require(); give the ES module output one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
