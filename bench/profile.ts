/**
 * `npx tsx bench/profile.ts [get|patch|list|hello|imports]`: where the server's time goes for one load of `npm run bench`
 * (`imports`: one 10,000-row CSV import, upload to committed, as bench/lib/imports.ts measures it; `imports-xlsx` the
 * same as a workbook).
 * Starts `studio serve` under `node --cpu-prof`, creates the same fixtures through the API, warms up, loads it the same
 * way as the bench, stops it (the profile is written on exit) and prints self and inclusive time by function and by
 * module, plus server CPU per request. The .cpuprofile stays in $TMPDIR/studio-bench-profiles/ (open it in Chrome
 * DevTools). STUDIO_SYNCHRONOUS=NORMAL in the environment reaches the server. `--dialect postgres` runs the server on a
 * durable throwaway PostgreSQL cluster instead of its SQLite file.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createProjectWithLines } from './lib/api.js';
import { importOnce, scheduleRows, toCsv, toXlsx } from './lib/imports.js';
import { LinePool, cannon, figures } from './lib/load.js';
import { ROOT, startHello, startStudio, type ServerProcess } from './lib/processes.js';
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

const scenario = process.argv.slice(2).find((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--dialect') ?? 'get';
const onPostgres =
  process.argv.includes('--dialect') && process.argv[process.argv.indexOf('--dialect') + 1] === 'postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
// Outside the repository: profiles are large and only .json results are git-ignored.
const dir = join(tmpdir(), 'studio-bench-profiles');
mkdirSync(dir, { recursive: true });

/** `node_modules/kysely/...` → `kysely`; project files by path; node internals as `node:`. */
function moduleOf(url: string): string {
  if (!url) return '(native/gc/idle)';
  if (url.startsWith('node:')) return url.split('/')[0]!;
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return relative(ROOT, path);
}

function summarise(profile: Profile, requests: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const idle = [...self]
    .filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)')
    .reduce((a, [, t]) => a + t, 0);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const busy = total - idle;
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${moduleOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const selfByFn = new Map<string, number>();
  const selfByModule = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') continue;
    selfByFn.set(label(n), (selfByFn.get(label(n)) ?? 0) + t);
    selfByModule.set(moduleOf(n.callFrame.url), (selfByModule.get(moduleOf(n.callFrame.url)) ?? 0) + t);
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
  console.log(`self time by module:\n${top(selfByModule, 15)}\n`);
  console.log(`self time by function:\n${top(selfByFn, 30)}\n`);
  const interesting = new Map(
    [...inclusive].filter(
      ([k]) => !k.includes('node_modules') && /\b(src|actions|db|kysely|zod|better-sqlite3)\b/.test(k),
    ),
  );
  console.log(`inclusive time (project code, kysely, zod, sqlite):\n${top(interesting, 40)}\n`);
}

/** Loads the server as the bench does; returns how many requests it served (setup and warm-up included). */
async function drive(server: ServerProcess): Promise<number> {
  if (scenario === 'hello') {
    const warm = figures(await cannon({ url: `${server.url}/`, connections, duration: 3 }));
    const r = figures(await cannon({ url: `${server.url}/`, connections, duration: seconds }));
    console.log(`hello: ${r.perSecond.toFixed(0)} ok/s, p50 ${r.latencyMs.p50} ms`);
    return warm.ok + r.ok;
  }
  if (scenario === 'imports' || scenario === 'imports-xlsx') {
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
  const warm = figures(await cannon({ ...target, connections: c, duration: 3 }));
  const r = figures(await cannon({ ...target, connections: c, duration: seconds }));
  console.log(
    `${scenario}: ${r.perSecond.toFixed(0)} ok/s, p50 ${r.latencyMs.p50} ms, non-2xx ${r.non2xx}, conflicts ${pool.conflicts}`,
  );
  // Setup and warm-up are in the profile too; count them so µs/request stays honest (setup is a small share).
  return warm.ok + warm.non2xx + r.ok + r.non2xx + 450 + connections * 5 + 2;
}

async function main() {
  const before = new Set(readdirSync(dir));
  const profiling = ['--cpu-prof', '--cpu-prof-dir', dir];
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
  let requests: number;
  try {
    const server = scenario === 'hello' ? await startHello(profiling) : await startStudio(env, profiling);
    try {
      requests = await drive(server);
    } finally {
      await server.stop();
    }
  } finally {
    cluster?.stop();
  }
  // One profile per thread (tsx runs its loader hooks in a worker): the main thread's is the largest.
  const file = readdirSync(dir)
    .filter((f) => !before.has(f) && f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (!file) throw new Error(`no .cpuprofile written to ${dir}`);
  console.log(`profile: ${join(dir, file)}`);
  summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile, requests);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exitCode = 1;
});
