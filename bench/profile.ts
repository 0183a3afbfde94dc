/**
 * `npx tsx bench/profile.ts [get|patch|list|hello|imports|get-peer]` (no scenario: GET one line, then PATCH FULL):
 * where the server's time goes for one load of `npm run bench`, and the top five costs of each. `get-peer` profiles GET
 * one line on the studio server and on the hand-written peer (bench/peer) in the same window and sets their time per
 * request side by side by module: where the studio's extra time goes.
 *
 * get, patch and list: `studio serve` with bench/lib/profiler-preload.mjs, which profiles through node:inspector's
 * Session and Profiler exactly the measured window (fixtures and warm-up are left out), so µs/request is the request's
 * own. hello and imports (`imports`: one 10,000-row CSV import, upload to committed, as bench/lib/imports.ts measures
 * it; `imports-xlsx` the same as a workbook) run under `node --cpu-prof` for the process's whole life.
 * Prints self time by function and by source file (the bundle's functions are attributed to the module they came from,
 * by the `// dist/...` markers esbuild leaves), and inclusive time of project code. The profiles stay in
 * $TMPDIR/studio-bench-profiles/ (open them in Chrome DevTools). STUDIO_SYNCHRONOUS=NORMAL in the environment reaches
 * the server. `--dialect postgres` runs the server on a durable throwaway PostgreSQL cluster instead of its SQLite file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createProjectWithLines } from './lib/api.js';
import { importOnce, scheduleRows, toCsv, toXlsx } from './lib/imports.js';
import { LinePool, cannon, figures } from './lib/load.js';
import { ROOT, startHello, startPeer, startStudio, type ServerProcess } from './lib/processes.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import pg from 'pg';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const named = process.argv.slice(2).find((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--dialect');
const scenarios = named ? [named] : ['get', 'patch'];
/** Scenarios profiled over their measured window only (the preload); the others over the whole process. */
const WINDOWED = new Set(['get', 'patch', 'list', 'get-peer']);
const PRELOAD = join(ROOT, 'bench/lib/profiler-preload.mjs');
const onPostgres =
  process.argv.includes('--dialect') && process.argv[process.argv.indexOf('--dialect') + 1] === 'postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
// Outside the repository: profiles are large and only .json results are git-ignored.
const dir = join(tmpdir(), 'studio-bench-profiles');
mkdirSync(dir, { recursive: true });

/**
 * Start lines of the bundle's modules (esbuild's `// dist/src/core/invoke.js` markers), for attributing its functions,
 * per file of the bundle (dist/studio.mjs and the chunks it splits into, dist/studio-<hash>.mjs), read on first use.
 */
const bundleModules = new Map<string, Array<{ line: number; module: string }>>();
const isBundleFile = (path: string) => /\/dist\/studio(-[^/]+)?\.mjs$/.test(path);

function marksOf(path: string): Array<{ line: number; module: string }> {
  let marks = bundleModules.get(path);
  if (!marks) {
    marks = [];
    if (existsSync(path))
      for (const [i, text] of readFileSync(path, 'utf8').split('\n').entries()) {
        const m = /^\/\/ (dist\/\S+|node_modules\/\S+)$/.exec(text);
        if (m) marks.push({ line: i, module: m[1]!.replace(/^dist\//, '') });
      }
    bundleModules.set(path, marks);
  }
  return marks;
}

function inBundle(path: string, line: number): string {
  const marks = marksOf(path);
  let lo = 0;
  let hi = marks.length - 1;
  let found = relative(ROOT, path);
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (marks[mid]!.line <= line) {
      found = marks[mid]!.module;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const nm = found.indexOf('node_modules/');
  if (nm < 0) return found;
  const rest = found.slice(nm + 'node_modules/'.length).split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

/** `node_modules/kysely/...` → `kysely`; project files by path (in the bundle, by its markers); node internals as `node:`. */
function moduleOf(url: string, line = 0): string {
  if (!url) return '(native/gc/idle)';
  if (url.startsWith('node:')) return url.split('/')[0]!;
  const path = url.replace(/^file:\/\//, '');
  if (isBundleFile(path)) return inBundle(path, line);
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return relative(ROOT, path);
}

/** A profile's samples: self time per node (the profiler's own work left out), idle apart from busy. */
function accounting(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // The profiler's own work (the preload starting and stopping it: serialising the profile) is not the server's.
  const profilerOwn = (id: number) => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      if (byId.get(cur)!.callFrame.url.endsWith('profiler-preload.mjs')) return true;
    }
    return false;
  };
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  for (const id of [...self.keys()]) if (profilerOwn(id)) self.delete(id);
  const idle = [...self]
    .filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)')
    .reduce((a, [, t]) => a + t, 0);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return { byId, parent, self, total, busy: total - idle };
}

/** Prints where the busy time went; answers busy self time by module, in µs per request. */
function summarise(profile: Profile, requests: number) {
  const { byId, parent, self, total, busy } = accounting(profile);
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${moduleOf(n.callFrame.url, n.callFrame.lineNumber)}:${n.callFrame.lineNumber + 1}`;
  const selfByFn = new Map<string, number>();
  const selfByModule = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') continue;
    selfByFn.set(label(n), (selfByFn.get(label(n)) ?? 0) + t);
    const module = moduleOf(n.callFrame.url, n.callFrame.lineNumber);
    selfByModule.set(module, (selfByModule.get(module) ?? 0) + t);
    // Inclusive: credit every distinct frame on the stack once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + t);
    }
  }
  const us = (t: number) => (t / requests).toFixed(1).padStart(7);
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)}%`;
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, t]) => `${pct(t)} ${us(t)} µs/req  ${k}`)
      .join('\n');
  console.log(
    `\nbusy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s profiled; ${requests} requests → ${(busy / requests).toFixed(1)} µs busy per request\n`,
  );
  console.log(`top five costs (self time by function):\n${top(selfByFn, 5)}\n`);
  console.log(`top five costs (self time by source file):\n${top(selfByModule, 5)}\n`);
  console.log(`self time by module:\n${top(selfByModule, 15)}\n`);
  console.log(`self time by function:\n${top(selfByFn, 30)}\n`);
  const interesting = new Map(
    [...inclusive].filter(
      ([k]) => !k.includes('node_modules') && /\b(src|actions|db|kysely|zod|better-sqlite3)\b/.test(k),
    ),
  );
  console.log(`inclusive time (project code, kysely, zod, sqlite):\n${top(interesting, 40)}\n`);
  return new Map([...selfByModule].map(([module, t]) => [module, t / requests]));
}

/** hello and imports: the whole process under --cpu-prof; returns how many requests it served. */
async function driveWhole(server: ServerProcess, scenario: string): Promise<number> {
  if (scenario === 'hello') {
    const warm = figures(await cannon({ url: `${server.url}/`, connections, duration: 3 }));
    const r = figures(await cannon({ url: `${server.url}/`, connections, duration: seconds }));
    console.log(`hello: ${r.perSecond.toFixed(0)} ok/s, p50 ${r.latencyMs.p50} ms`);
    return warm.ok + r.ok;
  }
  const rows = scheduleRows(10_000);
  const xlsx = scenario === 'imports-xlsx';
  const file = {
    bytes: xlsx ? await toXlsx(rows) : toCsv(rows),
    format: xlsx ? 'xlsx' : 'csv',
    rows: 10_000,
  } as const;
  const r = await importOnce(server, file, true);
  console.log(
    `${scenario}: ${(r.totalMs / 1000).toFixed(2)} s upload to committed (upload ${r.uploadMs.toFixed(0)}, preview ${r.previewMs.toFixed(0)}, commit ${r.commitMs.toFixed(0)} ms); RSS max ${r.rss!.maxMb.toFixed(0)} MB`,
  );
  return 1;
}

/** Toggles the preload's profiler in the server (SIGUSR2) and, when stopping, waits for the profile it writes. */
async function toggleProfiler(server: ServerProcess, file: string, stopping: boolean): Promise<Profile | undefined> {
  process.kill(server.pid, 'SIGUSR2');
  if (!stopping) return undefined;
  for (let i = 0; i < 600 && !existsSync(`${file}.done`); i++) await sleep(50);
  return JSON.parse(readFileSync(file, 'utf8')) as Profile;
}

/** get, patch, list: fixtures and warm-up unprofiled, then the measured load alone profiled. */
async function driveWindow(server: ServerProcess, scenario: string, file: string) {
  const list = await createProjectWithLines(server.url, server.token, 'Profile list', 450);
  const writes = await createProjectWithLines(server.url, server.token, 'Profile writes', connections * 5);
  const auth = { authorization: `Bearer ${server.token}` };
  const pool = new LinePool(writes.lines);
  const target =
    scenario === 'patch'
      ? { url: server.url, requests: [pool.patchRequest(writes.projectId, server.token)] }
      : scenario === 'list'
        ? { url: `${server.url}/v1/projects/${list.projectId}/items`, headers: auth }
        : { url: `${server.url}/v1/projects/${list.projectId}/items/${list.lines[0]!.id}`, headers: auth };
  const c = scenario === 'list' ? 1 : connections;
  await cannon({ ...target, connections: c, duration: 3 });
  await toggleProfiler(server, file, false);
  const r = figures(await cannon({ ...target, connections: c, duration: seconds }));
  const profile = (await toggleProfiler(server, file, true))!;
  console.log(
    `\n== ${scenario}: ${r.perSecond.toFixed(0)} ok/s, p50 ${r.latencyMs.p50} ms, non-2xx ${r.non2xx}, conflicts ${pool.conflicts}`,
  );
  console.log(`profile: ${file}`);
  summarise(profile, r.ok + r.non2xx);
}

/**
 * get-peer: GET one line on the studio server and on the hand-written peer over its database, both profiled over the
 * same window in interleaved rounds, then their busy time per request by module side by side: where the studio's
 * extra time per request goes.
 */
async function profileAgainstPeer(env: Record<string, string>) {
  const stamp = Date.now();
  const files = {
    studio: join(dir, `get-studio-${stamp}.cpuprofile`),
    peer: join(dir, `get-peer-${stamp}.cpuprofile`),
  };
  const studio = await startStudio({ ...env, BENCH_PROFILE_FILE: files.studio }, ['--import', PRELOAD]);
  let peer: ServerProcess | undefined;
  try {
    peer = await startPeer(studio, 'FULL', ['--import', PRELOAD], { BENCH_PROFILE_FILE: files.peer });
    const list = await createProjectWithLines(studio.url, studio.token, 'Profile list', 450);
    const path = `/v1/projects/${list.projectId}/items/${list.lines[0]!.id}`;
    const target = (s: ServerProcess) => ({
      url: `${s.url}${path}`,
      headers: { authorization: `Bearer ${studio.token}` },
    });
    for (const s of [studio, peer]) await cannon({ ...target(s), connections, duration: 3 });
    await toggleProfiler(studio, files.studio, false);
    await toggleProfiler(peer, files.peer, false);
    const served = { studio: 0, peer: 0 };
    for (let round = 0; round < 2; round++) {
      served.studio += figures(await cannon({ ...target(studio), connections, duration: seconds / 2 })).ok;
      served.peer += figures(await cannon({ ...target(peer), connections, duration: seconds / 2 })).ok;
    }
    const profiles = {
      studio: (await toggleProfiler(studio, files.studio, true))!,
      peer: (await toggleProfiler(peer, files.peer, true))!,
    };
    console.log(`\n== get-peer: studio server (${served.studio} requests), profile ${files.studio}`);
    const ours = summarise(profiles.studio, served.studio);
    console.log(`\n== get-peer: hand-written peer (${served.peer} requests), profile ${files.peer}`);
    const theirs = summarise(profiles.peer, served.peer);
    const modules = [...new Set([...ours.keys(), ...theirs.keys()])]
      .map((m) => ({ m, a: ours.get(m) ?? 0, b: theirs.get(m) ?? 0 }))
      .sort((x, y) => Math.abs(y.a - y.b) - Math.abs(x.a - x.b))
      .slice(0, 20);
    const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    console.log(
      `\nGET one line, busy µs per request by module: studio ${total(ours).toFixed(1)}, peer ${total(theirs).toFixed(1)}\n` +
        modules
          .map(
            ({ m, a, b }) =>
              `${a.toFixed(1).padStart(7)} ${b.toFixed(1).padStart(7)} ${(a - b).toFixed(1).padStart(7)}  ${m}`,
          )
          .join('\n'),
    );
  } finally {
    await peer?.stop();
    await studio.stop();
  }
}

async function profileOne(scenario: string, env: Record<string, string>) {
  if (scenario === 'get-peer') return profileAgainstPeer(env);
  if (WINDOWED.has(scenario)) {
    const file = join(dir, `${scenario}-${Date.now()}.cpuprofile`);
    rmSync(`${file}.done`, { force: true });
    const server = await startStudio({ ...env, BENCH_PROFILE_FILE: file }, ['--import', PRELOAD]);
    try {
      await driveWindow(server, scenario, file);
    } finally {
      await server.stop();
    }
    return;
  }
  const before = new Set(readdirSync(dir));
  const profiling = ['--cpu-prof', '--cpu-prof-dir', dir];
  const server = scenario === 'hello' ? await startHello(profiling) : await startStudio(env, profiling);
  let requests: number;
  try {
    requests = await driveWhole(server, scenario);
  } finally {
    await server.stop();
  }
  // One profile per thread (tsx runs its loader hooks in a worker): the main thread's is the largest.
  const file = readdirSync(dir)
    .filter((f) => !before.has(f) && f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (!file) throw new Error(`no .cpuprofile written to ${dir}`);
  console.log(`profile: ${join(dir, file)}`);
  summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile, requests);
}

async function main() {
  const cluster = onPostgres ? await startPostgres({ durable: true }) : undefined;
  let env: Record<string, string> = {};
  if (cluster) {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE studio_profile');
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = '/studio_profile';
    env = { STUDIO_DATABASE_URL: url.toString() };
  }
  try {
    for (const scenario of scenarios) await profileOne(scenario, env);
  } finally {
    cluster?.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exitCode = 1;
});
