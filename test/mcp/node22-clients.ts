import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/server.js';

/**
 * The real MCP clients (the MCP Inspector CLI 2.x, the MCP conformance suite) need Node ≥ 22.19, while the server and
 * the rest of the suite run on the project's Node. Both clients are devDependencies, and so is a Node 22 binary: the
 * npm package `node@22`, installed by `npm ci` under test/mcp/node22 (see the description in its package.json for why
 * it sits there). Nothing is downloaded at test time: each client's own bin script runs on that binary directly.
 */
export const NODE22 = join(ROOT, 'test/mcp/node22/node_modules/node/bin/node');

/**
 * The file a package's named bin points to, from its package.json, under the root node_modules (or another folder's:
 * the Inspector lives in test/mcp/node22-tools, outside the project's tree, so Node 20 installs warn about no engine).
 */
export function binOf(pkg: string, bin: string, modules = join(ROOT, 'node_modules')): string {
  const dir = join(modules, pkg);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
  const file = manifest.bin?.[bin];
  if (!file) throw new Error(`${pkg} has no bin named ${bin}`);
  return join(dir, file);
}

export const CONFORMANCE = binOf('@modelcontextprotocol/conformance', 'conformance');
export const INSPECTOR = binOf(
  '@modelcontextprotocol/inspector',
  'mcp-inspector',
  join(ROOT, 'test/mcp/node22-tools/node_modules'),
);

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `<node 22> script ...args` (no shell, so no quoting) and collects its exit code and output. */
export function runOnNode22(script: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  if (!existsSync(NODE22)) throw new Error(`${NODE22} is missing: run npm ci (the devDependency "node" brings it)`);
  return new Promise((resolve, reject) => {
    const child = spawn(NODE22, [script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
