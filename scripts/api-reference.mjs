/**
 * The browsable API reference, `/docs/api`: Redoc's static page of generated/openapi.json, made by @redocly/cli at
 * build time (`npm run build` runs this after bundling) into dist/docs/api-reference.html, which the server serves as
 * it is. `--inlineBundle` puts Redoc's script in the page, so the page loads nothing from Redocly's CDN; the one
 * address Redoc's script still names, its logo in the "API docs by" corner, is replaced by an empty data: image (the
 * image fails, and Redoc then leaves it out), so the page makes no request to another site at all, and it names its
 * own (empty) icon, so it asks none of the server either. Telemetry and the
 * update notice are off: a build asks nothing of the network.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const OUT = 'dist/docs/api-reference.html';
const REDOC_LOGOS = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;

mkdirSync('dist/docs', { recursive: true });
try {
  execFileSync(
    'node_modules/.bin/redocly',
    ['build-docs', 'generated/openapi.json', '--inlineBundle', '--title', 'Studio API reference', '-o', OUT],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
} catch (err) {
  // Quiet when it works (`npm start` prints the server's banner, not Redocly's progress); everything when it fails.
  process.stderr.write(`${err.stdout ?? ''}${err.stderr ?? ''}`);
  throw err;
}
// An icon of its own, so the browser does not ask the server for /favicon.ico.
const page = readFileSync(OUT, 'utf8')
  .replace(REDOC_LOGOS, 'data:,')
  .replace('<head>', '<head>\n  <link rel="icon" href="data:,">');
writeFileSync(OUT, page);
