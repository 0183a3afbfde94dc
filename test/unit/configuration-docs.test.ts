/**
 * The configuration is documented where people look for it: every STUDIO_* environment variable the server reads
 * (found in src/ as `env.STUDIO_…`, `process.env.STUDIO_…`, or a name the config loader reads through a helper, as in
 * `whole(env, 'STUDIO_…', …)`) has a row in the README's Configuration table and is named by `studio --help`, except
 * the few below that only tests and benchmarks set; and neither names a variable the server no longer reads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP } from '../../src/cli-help.js';

/** Variables `studio --help` leaves to the README, and why: nobody running a studio sets them. */
const HELP_MAY_OMIT: Record<string, string> = {
  STUDIO_STRICT_ERRORS: 'a switch for the tests: an undeclared error code fails the call',
  STUDIO_CHECK_OUTPUT: 'answers checked against output schemas: on under the tests, off the production hot path',
  STUDIO_SYNCHRONOUS: "SQLite's NORMAL durability, for benchmarks that compare only",
  STUDIO_XERO_LOGIN_URL: "Xero's own address by default; the tests point it at a local stand-in",
  STUDIO_XERO_IDENTITY_URL: "Xero's own address by default; the tests point it at a local stand-in",
  STUDIO_XERO_API_URL: "Xero's own address by default; the tests point it at a local stand-in",
};

const READS = [
  /\benv\.(STUDIO_[A-Z0-9_]+)/g, // env.STUDIO_X, process.env.STUDIO_X
  /\benv\[['"](STUDIO_[A-Z0-9_]+)['"]\]/g, // env['STUDIO_X']
  /\(env, '(STUDIO_[A-Z0-9_]+)'/g, // a config helper given the environment and a name: whole(env, 'STUDIO_X', …)
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every STUDIO_* variable the server's source reads. */
const read = new Set(
  sourceFiles('src').flatMap((f) => {
    const text = readFileSync(f, 'utf8');
    return READS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!));
  }),
);

/** The variables the README's Configuration table has a row for (the names in each row's first cell). */
function readmeTable(): Set<string> {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('\n## Configuration\n'));
  const table = section.slice(0, section.indexOf('\n## ', 1));
  const firstCells = table
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => l.split('|')[1]!);
  return new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`(STUDIO_[A-Z0-9_]+)`/g)].map((m) => m[1]!)));
}

/** Whether a text names the variable as a word (STUDIO_DATABASE is not named by STUDIO_DATABASE_URL). */
const names = (text: string, variable: string) => new RegExp(`\\b${variable}(?![A-Z0-9_])`).test(text);

describe('configuration documentation', () => {
  it('finds the variables the server reads, by every way it reads them', () => {
    // One read of each kind, so that a pattern that stopped matching fails here rather than passing everything.
    for (const v of ['STUDIO_PORT', 'STUDIO_TOKEN', 'STUDIO_STRICT_ERRORS', 'STUDIO_HEAP_GROWTH_PERCENT']) {
      expect(read, v).toContain(v);
    }
    expect(read.size).toBeGreaterThanOrEqual(35);
  });

  it("the README's Configuration table has a row for every variable read, and none for another", () => {
    const table = readmeTable();
    expect([...read].filter((v) => !table.has(v)).sort(), 'read but not in the README table').toEqual([]);
    expect([...table].filter((v) => !read.has(v)).sort(), 'in the README table but never read').toEqual([]);
  });

  it('studio --help names every variable read but those only tests and benchmarks set', () => {
    const missing = [...read].filter((v) => !(v in HELP_MAY_OMIT) && !names(HELP.main!, v));
    expect(missing.sort(), 'read but not in studio --help').toEqual([]);
    const named = [...HELP.main!.matchAll(/\bSTUDIO_[A-Z0-9_]+/g)].map((m) => m[0]);
    expect(named.filter((v) => !read.has(v)).sort(), 'in studio --help but never read').toEqual([]);
  });

  it('every variable --help may leave out is one the server reads', () => {
    for (const v of Object.keys(HELP_MAY_OMIT)) expect(read, v).toContain(v);
  });
});
