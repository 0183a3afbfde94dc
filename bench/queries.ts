/**
 * `npx tsx bench/queries.ts [--dialect postgres]`: SQL statements executed (and prepared) per request for the three
 * benchmarked requests, counted inside a real `studio serve` by a preload (bench/lib/count-queries.ts), so src/ stays
 * untouched. On PostgreSQL the statements are read off the wire, with the round trips the server waited for (writer
 * connection and readers apart), for PATCHes one at a time and ten at once (one commit group shares its BEGIN,
 * writer lock and COMMIT).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { createProjectWithLines, request } from './lib/api.js';
import type { WireCounts } from './lib/count-pg-wire.js';
import { ROOT, startStudio, type ServerProcess } from './lib/processes.js';

type Counts = { executions: Record<string, number>; prepares: Record<string, number>; postgres: WireCounts };
const log = join(tmpdir(), `studio-bench-queries-${process.pid}.json`);
const N = 50;
const postgres =
  process.argv.includes('--dialect') && process.argv[process.argv.indexOf('--dialect') + 1] === 'postgres';

async function snapshot(s: ServerProcess): Promise<Counts> {
  rmSync(log, { force: true });
  process.kill(s.pid, 'SIGUSR2');
  for (let i = 0; i < 200 && !existsSync(log); i++) await sleep(10);
  await sleep(20);
  return JSON.parse(readFileSync(log, 'utf8')) as Counts;
}

function delta(a: Counts, b: Counts, n: number) {
  const per = (x: Record<string, number>, y: Record<string, number>) =>
    Object.entries(y)
      .map(([sql, c]) => [sql, (c - (x[sql] ?? 0)) / n] as const)
      .filter(([, c]) => c > 0)
      .sort((p, q) => q[1] - p[1]);
  return postgres
    ? {
        executions: per(a.postgres.statements, b.postgres.statements),
        prepares: [],
        roundTrips: {
          writer: (b.postgres.roundTrips.writer - a.postgres.roundTrips.writer) / n,
          reader: (b.postgres.roundTrips.reader - a.postgres.roundTrips.reader) / n,
        },
      }
    : { executions: per(a.executions, b.executions), prepares: per(a.prepares, b.prepares) };
}

function print(name: string, d: ReturnType<typeof delta>) {
  const total = (xs: ReadonlyArray<readonly [string, number]>) => xs.reduce((s, [, c]) => s + c, 0);
  const trips =
    'roundTrips' in d && d.roundTrips
      ? `; round trips ${(d.roundTrips.writer + d.roundTrips.reader).toFixed(1)} (writer ${d.roundTrips.writer.toFixed(1)}, readers ${d.roundTrips.reader.toFixed(1)})`
      : '';
  console.log(
    `\n${name}: ${total(d.executions).toFixed(1)} statements executed, ${total(d.prepares).toFixed(1)} prepared per request${trips}`,
  );
  for (const [sql, c] of d.executions) {
    const prepared = d.prepares.find(([s]) => s === sql)?.[1] ?? 0;
    console.log(
      `  ${c.toFixed(1).padStart(4)}× ${prepared ? `(prepared ${prepared.toFixed(1)}×) ` : postgres ? '' : '(cached)       '}${sql.replace(/\s+/g, ' ').slice(0, 150)}`,
    );
  }
}

async function startServer(): Promise<{ server: ServerProcess; stop: () => Promise<void> }> {
  const preload = ['--import', 'tsx', '--import', join(ROOT, 'bench/lib/count-queries.ts')];
  if (!postgres) {
    const server = await startStudio({ BENCH_QUERY_LOG: log }, preload);
    return { server, stop: server.stop };
  }
  const cluster = await startPostgres();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE studio_queries');
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = '/studio_queries';
  const server = await startStudio(
    { BENCH_QUERY_LOG: log, STUDIO_DATABASE_URL: url.toString(), BENCH_PG_PORT: url.port },
    preload,
  );
  return {
    server,
    stop: async () => {
      await server.stop();
      cluster.stop();
    },
  };
}

async function main() {
  const { server, stop } = await startServer();
  try {
    const f = await createProjectWithLines(server.url, server.token, 'Queries', 450);
    const token = server.token;
    const line = f.lines[0]!;
    const item = (id: string) => `/v1/projects/${f.projectId}/items/${id}`;
    await request(server.url, 'GET', item(line.id), { token }); // first-use work (statement caches) out of the way

    let a = await snapshot(server);
    for (let i = 0; i < N; i++) await request(server.url, 'GET', item(line.id), { token });
    let b = await snapshot(server);
    print('GET one line', delta(a, b, N));

    const etags = new Map(f.lines.map((l) => [l.id, l.etag]));
    const patch = async (id: string, i: number) => {
      const r = await request(server.url, 'PATCH', item(id), {
        token,
        body: { finish: `Oak ${i}` },
        headers: { 'if-match': etags.get(id)!, 'content-type': 'application/merge-patch+json' },
      });
      if (r.status !== 200) throw new Error(`PATCH ${r.status}: ${r.text}`);
      etags.set(id, r.headers.etag!);
    };
    await patch(line.id, -1);
    a = await snapshot(server);
    for (let i = 0; i < N; i++) await patch(line.id, i);
    b = await snapshot(server);
    print('PATCH one line (If-Match), one at a time', delta(a, b, N));

    const ten = f.lines.slice(0, 10).map((l) => l.id);
    a = await snapshot(server);
    for (let i = 0; i < 20; i++) await Promise.all(ten.map((id) => patch(id, i)));
    b = await snapshot(server);
    print('PATCH one line (If-Match), ten at once', delta(a, b, 200));

    a = await snapshot(server);
    for (let i = 0; i < 10; i++) await request(server.url, 'GET', `/v1/projects/${f.projectId}/items`, { token });
    b = await snapshot(server);
    print('list 450 lines', delta(a, b, 10));
  } finally {
    await stop();
    rmSync(log, { force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exitCode = 1;
});
