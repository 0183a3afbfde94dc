/**
 * The README's shell examples, run as written against the real server process, so they cannot rot: every ```sh
 * block, in order, each in a bash of its own (so each sets what it uses: `set -u` stops at a variable used before it is
 * set), from a folder laid out as the project's is (`data/owner-token` holding the server's token, `samples/` the
 * project's own), with `http://127.0.0.1:3000` read as this server's address. `curl` is made to fail on an HTTP
 * error (`--fail-with-body`), so an example that answers 4xx fails here even where a reader would only see the
 * problem document. A block marked `<!-- readme-test: skip: <why> -->` on the line before its fence is not run (starting
 * a server, installing packages, MCP calls): docs/readme-examples.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServer, ROOT, type RunningServer } from '../helpers/server.js';

interface Block {
  /** The fence's line number in README.md (1-based). */
  line: number;
  code: string;
  /** Why it is not run, from its marker; undefined: it runs. */
  skip?: string;
}

const SKIP = /^\s*<!-- readme-test: skip: (.+?) -->\s*$/;

/** Every ```sh (or ```bash) block of a Markdown text, unindented, with the skip marker on the line before it. */
function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```(?:sh|bash)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const indent = fence[1]!.length;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^\s*```\s*$/.test(lines[i]!)) body.push(lines[i]!.slice(indent));
    blocks.push({ line: start + 1, code: body.join('\n'), skip: SKIP.exec(lines[start - 1] ?? '')?.[1] });
  }
  return blocks;
}

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BLOCKS = shellBlocks(README);

let server: RunningServer;
let work: string;
openServer((started) => (server = started));
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'readme-'));
  mkdirSync(join(work, 'data'));
  writeFileSync(join(work, 'data/owner-token'), `${server.token}\n`);
  symlinkSync(join(ROOT, 'samples'), join(work, 'samples'));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs one block in bash, strictly, from the project-like folder, against the test server. */
function run(code: string) {
  const script = [
    'set -euo pipefail',
    'curl() { command curl --fail-with-body "$@"; }',
    code.replaceAll('http://127.0.0.1:3000', server.url),
  ].join('\n');
  return spawnSync('bash', ['-c', script], { cwd: work, encoding: 'utf8', timeout: 120_000 });
}

describe('README examples', () => {
  it('curl and bash are installed here (the examples use them; Debian: apt-get install curl)', () => {
    expect(spawnSync('curl', ['--version']).status, 'curl is missing: apt-get install curl').toBe(0);
    expect(spawnSync('bash', ['--version']).status).toBe(0);
  });

  it('has shell examples, and says why of each it does not run', () => {
    expect(BLOCKS.filter((b) => !b.skip).length).toBeGreaterThanOrEqual(5);
    for (const b of BLOCKS.filter((x) => x.skip)) expect(b.skip!.length, `line ${b.line}`).toBeGreaterThan(15);
    // Every marker sits right above a shell block.
    const markers = README.split('\n').filter((l) => SKIP.test(l)).length;
    expect(markers).toBe(BLOCKS.filter((b) => b.skip).length);
  });

  it('uses no tool a bare Debian lacks, and only sample files that exist', () => {
    expect(README).not.toMatch(/\buuidgen\b/);
    for (const [path] of README.matchAll(/samples\/[\w.-]+\.\w+/g))
      expect(existsSync(join(ROOT, path)), path).toBe(true);
  });

  it.each(BLOCKS.filter((b) => !b.skip).map((b) => [b.line, b]))('the block at README.md:%i runs', (_line, block) => {
    const result = run(block.code);
    expect(result.status, `${block.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(0);
  });
});
