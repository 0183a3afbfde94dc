/**
 * `npm run generate` writes generated/ from the action catalog and docs/errors.md from the error catalog;
 * `npm run generate -- --check` fails if any file differs from what would be written (CI runs it). Output is
 * deterministic: sorted keys, 2-space JSON, final newline.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACTIONS, EXPORT_NAMES } from '../actions/index.js';
import { canonicalJson } from '../src/core/canonical-json.js';
import { buildActionsDocument } from '../src/contract/actions-json.js';
import { buildErrorsDoc } from '../src/contract/errors-doc.js';
import { buildOpenApiDocument } from '../src/contract/openapi.js';
import { buildRouterTypeSource } from './router-type.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const json = (v: unknown) => `${canonicalJson(v, 2)}\n`;

export function generatedFiles(): Record<string, string> {
  return {
    'generated/actions.json': json(buildActionsDocument(ACTIONS)),
    'generated/openapi.json': json(buildOpenApiDocument(ACTIONS)),
    'generated/router.ts': buildRouterTypeSource(ACTIONS, EXPORT_NAMES),
    'docs/errors.md': buildErrorsDoc(),
  };
}

const check = process.argv.includes('--check');
let stale = 0;
for (const [path, text] of Object.entries(generatedFiles())) {
  const file = join(root, path);
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) continue;
  if (check) {
    stale += 1;
    console.error(`${path} is out of date.`);
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`wrote ${path}`);
  }
}
if (stale) {
  console.error('Generated files differ from the catalogs. Run `npm run generate` and commit the result.');
  process.exit(1);
}
