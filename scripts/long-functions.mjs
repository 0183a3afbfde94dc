// Lists every function, method and arrow function longer than a screen (80 lines, signature to closing brace,
// comments and blank lines counted) in the code we write, so "functions that fit on a screen" can be checked rather
// than remembered. Biome's parser finds the functions (the TypeScript compiler API is gone in TS 7); its own rule
// counts without comments, so the span it reports is measured here instead.
// Usage: node scripts/long-functions.mjs [maxLines]   exits 1 when one is found.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const maxLines = Number(process.argv[2] ?? 80);
const folders = ['actions', 'src', 'catalog', 'db', 'bench'];

// A configuration of its own so that only this rule runs, at one line, and every function is reported with its span.
const config = mkdtempSync(join(tmpdir(), 'long-functions-'));
writeFileSync(
  join(config, 'biome.json'),
  JSON.stringify({
    formatter: { enabled: false },
    assist: { enabled: false },
    linter: {
      enabled: true,
      rules: {
        recommended: false,
        complexity: { noExcessiveLinesPerFunction: { level: 'error', options: { maxLines: 1 } } },
      },
    },
  }),
);
let report;
try {
  report = execFileSync(
    'npx',
    ['biome', 'lint', `--config-path=${config}`, '--reporter=json', '--max-diagnostics=none', ...folders],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] },
  );
} catch (error) {
  // Biome exits 1 because it found functions: the report is still on stdout.
  report = error.stdout;
} finally {
  rmSync(config, { recursive: true, force: true });
}

const long = JSON.parse(report)
  .diagnostics.filter((d) => d.category === 'lint/complexity/noExcessiveLinesPerFunction')
  .map(({ location: { path, start, end } }) => ({ path, line: start.line, lines: end.line - start.line + 1 }))
  .filter((f) => f.lines > maxLines && !/(^|\/)(generated|test)\//.test(f.path))
  .sort((a, b) => b.lines - a.lines);

for (const f of long) {
  const source = readFileSync(f.path, 'utf8').split('\n')[f.line - 1].trim();
  console.log(`${String(f.lines).padStart(4)}  ${f.path}:${f.line}  ${source.slice(0, 90)}`);
}
if (long.length > 0) process.exitCode = 1;
