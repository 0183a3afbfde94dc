/**
 * `npx tsx bench/pg-writes.ts` (after `npm run build`): the two PostgreSQL figures of `npm run bench -- --dialect
 * postgres` that the write path is held to, measured on their own so a change to it can be judged in minutes: GET one
 * line and PATCH a line with If-Match (audited, synchronous_commit=on), on PostgreSQL and on SQLite (synchronous=FULL)
 * in the same run, in interleaved rounds. Per round: requests/s, the studio server's CPU per request, PostgreSQL's CPU
 * per request (every process of the cluster), WAL fsyncs/s, the load generator's CPU per request (it shares the
 * machine), and how many cores other processes took. Prints every
 * round, then best and median of each.
 *
 * Knobs: BENCH_ROUNDS (5), BENCH_SECONDS (10), BENCH_WARMUP (3), BENCH_CONNECTIONS (10); BENCH_PG_SOCKET=1 connects
 * the PostgreSQL server through its Unix socket instead of loopback TCP; BENCH_STUDIO_CLI measures another build.
 */
import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { createProjectWithLines } from './lib/api.js';
import { LinePool, warmThenMeasure, type LoadFigures, type LoadOptions } from './lib/load.js';
import { pgWindow, type PgWindow } from './lib/pg-activity.js';
import { startStudio, type ServerProcess } from './lib/processes.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const load: LoadOptions = {
  connections: num('BENCH_CONNECTIONS', 10),
  seconds: num('BENCH_SECONDS', 10),
  warmupSeconds: num('BENCH_WARMUP', 3),
};
const ROUNDS = Math.max(1, num('BENCH_ROUNDS', 5));
const log = (s: string) => process.stderr.write(`${s}\n`);

type Figures = LoadFigures & { pg?: PgWindow };

async function targets(s: ServerProcess, label: string) {
  const list = await createProjectWithLines(s.url, s.token, `Reads (${label})`, 5);
  const writes = await createProjectWithLines(s.url, s.token, `Writes (${label})`, load.connections * (2 * ROUNDS + 3));
  const pool = new LinePool(writes.lines);
  return {
    pool,
    get: {
      url: `${s.url}/v1/projects/${list.projectId}/items/${list.lines[0]!.id}`,
      headers: { authorization: `Bearer ${s.token}` },
    },
    patch: { url: s.url, requests: [pool.patchRequest(writes.projectId, s.token)] },
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function line(label: string, f: Figures) {
  const pgPart = f.pg
    ? `, postgres ${f.pg.postgresUsPerRequest.toFixed(0)} µs/req, ${f.pg.walSyncsPerSecond.toFixed(0)} WAL fsyncs/s`
    : '';
  return `${label.padEnd(12)} ${f.perSecond.toFixed(0).padStart(6)}/s  p50 ${String(f.latencyMs.p50).padStart(3)} ms  server ${f.cpu!.serverUsPerRequest.toFixed(0).padStart(4)} µs/req${pgPart}; load generator ${((f.cpu!.clientCores * 1e6) / f.perSecond).toFixed(0)} µs/req; other processes ${f.cpu!.otherCores.toFixed(2)} cores`;
}

async function main() {
  log('Starting a durable throwaway PostgreSQL cluster (fsync, synchronous_commit on) and two studio servers');
  const cluster = await startPostgres({ durable: true });
  const admin = new pg.Client({ connectionString: cluster.url });
  const stops: Array<() => Promise<void>> = [];
  try {
    await admin.connect();
    await admin.query('CREATE DATABASE studio_writes');
    const url = new URL(process.env.BENCH_PG_SOCKET ? cluster.socketUrl! : cluster.url);
    url.pathname = '/studio_writes';
    const onPg = await startStudio({ STUDIO_DATABASE_URL: url.toString() });
    stops.push(onPg.stop);
    const onSqlite = await startStudio();
    stops.push(onSqlite.stop);
    const t = { sqlite: await targets(onSqlite, 'SQLite'), postgres: await targets(onPg, 'PG') };
    const rounds: Record<string, Figures[]> = { 'SQLite GET': [], 'SQLite PATCH': [], 'PG GET': [], 'PG PATCH': [] };
    for (let r = 1; r <= ROUNDS; r++) {
      log(`round ${r}/${ROUNDS}`);
      for (const [label, s, target] of [
        ['SQLite GET', onSqlite, t.sqlite.get],
        ['SQLite PATCH', onSqlite, t.sqlite.patch],
        ['PG GET', onPg, t.postgres.get],
        ['PG PATCH', onPg, t.postgres.patch],
      ] as const) {
        const isPg = label.startsWith('PG');
        // Warm up, then open both windows, then measure: warmThenMeasure with no warm-up measures at once.
        if (load.warmupSeconds > 0)
          await warmThenMeasure(target, { ...load, seconds: load.warmupSeconds, warmupSeconds: 0 });
        const close = isPg ? await pgWindow(admin, 'studio_writes') : undefined;
        const f: Figures = await warmThenMeasure(target, { ...load, warmupSeconds: 0 }, s.pid);
        if (close) f.pg = await close(f.ok + f.non2xx);
        rounds[label]!.push(f);
        log(`  ${line(label, f)}`);
      }
    }
    console.log(
      `\n${ROUNDS} rounds of ${load.seconds} s, ${load.connections} connections, after ${load.warmupSeconds} s warm-up each`,
    );
    for (const [label, fs] of Object.entries(rounds)) {
      const best = fs.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
      console.log(`${line(`${label} best`, best)}`);
      const cpu = fs.map((f) => f.cpu!.serverUsPerRequest);
      const pgCpu = fs.filter((f) => f.pg).map((f) => f.pg!.postgresUsPerRequest);
      console.log(
        `${`${label} median`.padEnd(12)} ${median(fs.map((f) => f.perSecond))
          .toFixed(0)
          .padStart(
            6,
          )}/s  server ${median(cpu).toFixed(0)} µs/req (min ${Math.min(...cpu).toFixed(0)})${pgCpu.length ? `, postgres ${median(pgCpu).toFixed(0)} µs/req, ${median(fs.map((f) => f.pg!.walSyncsPerSecond)).toFixed(0)} WAL fsyncs/s` : ''}`,
      );
    }
    const ratio = (a: string, b: string) =>
      median(rounds[a]!.map((f) => f.cpu!.serverUsPerRequest)) /
      median(rounds[b]!.map((f) => f.cpu!.serverUsPerRequest));
    console.log(
      `\nserver CPU per request, PG ÷ SQLite (medians): GET ${ratio('PG GET', 'SQLite GET').toFixed(2)}×, PATCH ${ratio('PG PATCH', 'SQLite PATCH').toFixed(2)}×`,
    );
    const failures = t.postgres.pool.otherFailures + t.sqlite.pool.otherFailures;
    console.log(
      `conflicts: PG ${t.postgres.pool.conflicts}, SQLite ${t.sqlite.pool.conflicts}; other failures ${failures}`,
    );
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    await admin.end().catch(() => {});
    cluster.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exitCode = 1;
});
