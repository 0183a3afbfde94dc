/**
 * `npx tsx bench/mcp-startup.ts`: where the cold start of `studio mcp` goes (after `npm run build`).
 *
 *   1. spawn → initialize result for `studio mcp`, the minimal SDK server, and a bare `node -e 0`, median of RUNS
 *   2. the import cost of each module `studio mcp` loads, each alone in a fresh `node` (so shared dependencies are
 *      counted in each), median of RUNS: what a lazy import or a lighter dependency could save
 *   3. the start-up work after the imports, in one process: open + migrate the database, create the MCP server, then
 *      what follows the handshake: import the catalog, build its view (tools/list, the search index)
 *   4. one start under `node --cpu-prof`: CPU by package (self time), so compiling and evaluating modules shows up
 *      against the server's own work. The .cpuprofile stays in $TMPDIR/studio-bench-profiles/.
 *   5. an experiment: the same dist/src/cli.js bundled by esbuild into one ESM file (better-sqlite3 stays external),
 *      once with only the project and kysely inlined, once with every JavaScript dependency inlined, cold-started
 *      interleaved with the real one and the minimal server. Not how the server ships; it shows what the module graph
 *      costs.
 *
 * Every child is a plain `node` on dist/ (no TypeScript loader), as mcp.json starts the server. BENCH_MCP_STARTUP_RUNS
 * (default 7) sets RUNS.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { build } from 'esbuild';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { coldStart, median, minimalMcp, studioMcp, type StdioCommand } from './lib/mcp.js';
import { ROOT, startStudio } from './lib/processes.js';

const RUNS = Number(process.env.BENCH_MCP_STARTUP_RUNS ?? 7);
const dist = (p: string) => join(ROOT, 'dist', p);

/** Median wall time of `node <args>` to exit, in ms. */
function nodeWall(args: string[], env: Record<string, string> = {}): number {
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (r.status !== 0) throw new Error(`node ${args.join(' ')}: ${r.stderr}`);
    if (i > 0) times.push(performance.now() - t0); // the first run only warms the OS file cache
  }
  return median(times);
}

/** Median time, measured inside a fresh node, of `await import(specifier)` alone. */
function importCost(specifier: string): number {
  const code = `const t=performance.now();await import(${JSON.stringify(specifier)});process.stdout.write(String(performance.now()-t))`;
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    if (i > 0) times.push(Number(out.toString()));
  }
  return median(times);
}

/**
 * The steps of `runStdioMcp` after its imports, timed one by one inside one fresh node, median over RUNS processes.
 * The catalog (every action module) is imported after the handshake (src/surfaces/mcp/catalog-source.ts), so its
 * import and catalogView are timed last, as the work a first call after tools/list may wait for.
 */
function startupSteps(databasePath: string): Record<string, number> {
  const code = `
    const t = [performance.now()];
    const { loadConfig } = await import(${JSON.stringify(dist('src/config.js'))});
    const { createRuntime } = await import(${JSON.stringify(dist('src/runtime.js'))});
    const { createMcpServer, catalogView } = await import(${JSON.stringify(dist('src/surfaces/mcp/server.js'))});
    const { lazyCatalog } = await import(${JSON.stringify(dist('src/surfaces/mcp/catalog-source.js'))});
    const { localOwner } = await import(${JSON.stringify(dist('src/local-owner.js'))});
    await import('@modelcontextprotocol/sdk/server/stdio.js');
    t.push(performance.now());
    const rt = await createRuntime(loadConfig());
    t.push(performance.now());
    const owner = await localOwner(rt.store);
    t.push(performance.now());
    const catalog = lazyCatalog(async () => (await import(${JSON.stringify(dist('actions/index.js'))})).ACTIONS);
    createMcpServer(rt, catalog, { caller: owner.caller });
    t.push(performance.now());
    const actions = await catalog.actions();
    t.push(performance.now());
    catalogView(actions);
    t.push(performance.now());
    await rt.close();
    process.stdout.write(JSON.stringify(t.slice(1).map((x, i) => x - t[i])));`;
  const names = [
    'imports (without the catalog)',
    'createRuntime: open + migrate the database',
    'localOwner',
    'createMcpServer (lazy catalog)',
    'after tools/list: import the catalog (actions/index.js)',
    'after tools/list: catalogView (tools/list + search index)',
  ];
  const runs: number[][] = [];
  for (let i = 0; i <= RUNS; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '', STUDIO_DATABASE: databasePath },
    });
    if (i > 0) runs.push(JSON.parse(out.toString()) as number[]);
  }
  return Object.fromEntries(names.map((n, i) => [n, median(runs.map((r) => r[i]!))]));
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

/** `node_modules/kysely/...` → `kysely`; project files by dist folder; node internals as `node:`. */
function packageOf(url: string): string {
  if (!url) return '(native, GC, compile)';
  if (url.startsWith('node:')) return 'node: (internals)';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return relative(ROOT, path).split('/').slice(0, 2).join('/');
}

/** One `studio mcp` cold start under --cpu-prof; self time by package, in ms. */
async function profileOnce(
  cmd: StdioCommand,
): Promise<{ file: string; byPackage: Array<[string, number]>; totalMs: number }> {
  const dir = join(tmpdir(), 'studio-bench-profiles');
  mkdirSync(dir, { recursive: true });
  const before = new Set(readdirSync(dir));
  await coldStart({ ...cmd, args: ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir, ...cmd.args] });
  const file = readdirSync(dir)
    .filter((f) => !before.has(f) && f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (!file) throw new Error('no profile written');
  const p = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') return;
    const k =
      n.callFrame.functionName === '(garbage collector)'
        ? '(garbage collector)'
        : n.callFrame.functionName === '(program)'
          ? '(program: compile, load, native)'
          : packageOf(n.callFrame.url);
    const t = (p.timeDeltas[i] ?? 0) / 1000;
    total += t;
    self.set(k, (self.get(k) ?? 0) + t);
  });
  return { file: join(dir, file), byPackage: [...self].sort((a, b) => b[1] - a[1]), totalMs: total };
}

/** dist/src/cli.js as one ESM file in a temp folder (node_modules linked, for what stays external). */
async function bundle(dir: string, name: string, external: string[]): Promise<string> {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [dist('src/cli.js')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    external,
    logLevel: 'error',
    // Inlined CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
  });
  return outfile;
}

/** Medians of spawn → initialize and → tools/list, the commands interleaved. */
async function interleaved(commands: StdioCommand[], runs: number) {
  for (const c of commands) await coldStart(c);
  const init = commands.map(() => [] as number[]);
  const list = commands.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [j, c] of commands.entries()) {
      const r = await coldStart(c);
      init[j]!.push(r.initializeMs);
      list[j]!.push(r.toolsListMs);
    }
  }
  return commands.map((c, j) => ({ label: c.label, initializeMs: median(init[j]!), toolsListMs: median(list[j]!) }));
}

async function main() {
  const host = await startStudio();
  try {
    const studio = studioMcp({ STUDIO_DATABASE: host.databasePath });
    const pad = (s: string, n = 58) => s.padEnd(n);
    const ms = (v: number) => `${v.toFixed(1).padStart(7)} ms`;

    console.log(`\n1. spawn → initialize result, median of ${RUNS}`);
    const [s, m] = [studio, minimalMcp].map((c) => c);
    const cold = { studio: [] as number[], minimal: [] as number[] };
    await coldStart(s!);
    await coldStart(m!);
    for (let i = 0; i < RUNS; i++) {
      cold.studio.push((await coldStart(s!)).initializeMs);
      cold.minimal.push((await coldStart(m!)).initializeMs);
    }
    console.log(`${pad('node -e 0 (bare node start to exit)')}${ms(nodeWall(['-e', '0']))}`);
    console.log(`${pad('minimal SDK server')}${ms(median(cold.minimal))}`);
    console.log(`${pad('studio mcp')}${ms(median(cold.studio))}`);

    console.log(`\n2. import cost, each module alone in a fresh node (dependencies included), median of ${RUNS}`);
    const modules = [
      '@modelcontextprotocol/sdk/server/index.js',
      '@modelcontextprotocol/sdk/server/mcp.js',
      '@modelcontextprotocol/sdk/server/stdio.js',
      'zod',
      'kysely',
      'better-sqlite3',
      'minisearch',
      dist('db/sqlite.js'),
      dist('actions/index.js'),
      dist('src/contract/actions-json.js'),
      dist('src/surfaces/mcp/server.js'),
      dist('src/mcp-stdio.js'),
    ];
    for (const mod of modules)
      console.log(`${pad(mod.startsWith(ROOT) ? relative(ROOT, mod) : mod)}${ms(importCost(mod))}`);

    console.log(`\n3. start-up steps inside one process (after the imports), median of ${RUNS}`);
    for (const [k, v] of Object.entries(startupSteps(host.databasePath))) console.log(`${pad(k)}${ms(v)}`);

    console.log('\n4. one cold start of studio mcp under --cpu-prof (100 µs sampling): CPU self time by package');
    const prof = await profileOnce(studio);
    for (const [k, v] of prof.byPackage.slice(0, 15))
      console.log(`${pad(k)}${ms(v)}  ${((100 * v) / prof.totalMs).toFixed(0).padStart(3)}%`);
    console.log(`${pad('total CPU sampled')}${ms(prof.totalMs)}\nprofile: ${prof.file}`);

    console.log(
      `\n5. experiment: bundled with esbuild (better-sqlite3 external), interleaved, median of ${RUNS}; → initialize, → tools/list`,
    );
    const dir = mkdtempSync(join(tmpdir(), 'studio-bench-bundle-'));
    try {
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      // The migration runner lists the folder beside the bundle (db/migration-files.ts).
      symlinkSync(join(ROOT, 'dist/migrations'), join(dir, 'migrations'), 'dir');
      const deps = ['zod', '@modelcontextprotocol/sdk', 'minisearch', 'fastify', '@trpc/server', 'openapi3-ts'];
      const withKysely = await bundle(dir, 'project-and-kysely', ['better-sqlite3', ...deps]);
      const everything = await bundle(dir, 'everything', ['better-sqlite3']);
      const variants: StdioCommand[] = [
        studio,
        { ...studio, label: 'bundled: project + kysely inlined', args: [withKysely, 'mcp'] },
        { ...studio, label: 'bundled: every JS dependency inlined', args: [everything, 'mcp'] },
        minimalMcp,
      ];
      for (const v of await interleaved(variants, RUNS))
        console.log(`${pad(v.label)}${ms(v.initializeMs)}${ms(v.toolsListMs)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await host.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exitCode = 1;
});
