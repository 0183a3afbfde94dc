// Installs test/mcp/node22-tools (the test tools that need Node >= 22.19) from its own lockfile, with npm running on
// the Node 22 binary the devDependency "node" (test/mcp/node22) brings: those tools run on that Node, so their engines
// are checked against it, and the project's own `npm install` on Node 20 stays free of EBADENGINE warnings. Run as
// the root package's postinstall; a production install (no devDependencies, so no Node 22) skips it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node22 = join(root, 'test/mcp/node22/node_modules/node/bin/node');
const folder = join(root, 'test/mcp/node22-tools');
const npmCli = process.env.npm_execpath;

if (!existsSync(node22) || !npmCli) {
  console.log('install-node22-tools: no Node 22 here (a production install?), test tools skipped');
  process.exit(0);
}
/** The environment without what the outer npm set for its own scripts (its prefix, its package), cache kept. */
function outerNpmLeftOut(env) {
  const kept = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_/i.test(k) || kept.has(k.toLowerCase())));
}

const command = existsSync(join(folder, 'package-lock.json')) ? 'ci' : 'install';
const run = spawnSync(node22, [npmCli, command, '--no-audit', '--no-fund', '--ignore-scripts'], {
  cwd: folder,
  stdio: 'inherit',
  env: { ...outerNpmLeftOut(process.env), npm_config_engine_strict: 'true' },
});
process.exit(run.status ?? 1);
