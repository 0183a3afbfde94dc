/**
 * `npx tsx bench/queries.ts`: SQL statements executed (and prepared) per request for the three benchmarked requests,
 * counted inside a real `studio serve` by a preload (bench/lib/count-queries.ts), so src/ stays untouched.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createProjectWithLines, request } from './lib/api.js';
import { ROOT, startStudio, type ServerProcess } from './lib/processes.js';

type Counts = { executions: Record<string, number>; prepares: Record<string, number> };
const log = join(tmpdir(), `studio-bench-queries-${process.pid}.json`);
const N = 50;

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
  return { executions: per(a.executions, b.executions), prepares: per(a.prepares, b.prepares) };
}

function print(name: string, d: ReturnType<typeof delta>) {
  const total = (xs: ReadonlyArray<readonly [string, number]>) => xs.reduce((s, [, c]) => s + c, 0);
  console.log(
    `\n${name}: ${total(d.executions).toFixed(1)} statements executed, ${total(d.prepares).toFixed(1)} prepared per request`,
  );
  for (const [sql, c] of d.executions) {
    const prepared = d.prepares.find(([s]) => s === sql)?.[1] ?? 0;
    console.log(
      `  ${c.toFixed(1).padStart(4)}× ${prepared ? `(prepared ${prepared.toFixed(1)}×) ` : '(cached)       '}${sql.replace(/\s+/g, ' ').slice(0, 150)}`,
    );
  }
}

async function main() {
  const server = await startStudio({ BENCH_QUERY_LOG: log }, [
    '--import',
    'tsx',
    '--import',
    join(ROOT, 'bench/lib/count-queries.ts'),
  ]);
  try {
    const f = await createProjectWithLines(server.url, server.token, 'Queries', 450);
    const token = server.token;
    const line = f.lines[0]!;
    const item = `/v1/projects/${f.projectId}/items/${line.id}`;
    await request(server.url, 'GET', item, { token }); // first-use work (statement caches) out of the way

    let a = await snapshot(server);
    for (let i = 0; i < N; i++) await request(server.url, 'GET', item, { token });
    let b = await snapshot(server);
    print('GET one line', delta(a, b, N));

    let etag = line.etag;
    a = await snapshot(server);
    for (let i = 0; i < N; i++) {
      const r = await request(server.url, 'PATCH', item, {
        token,
        body: { finish: `Oak ${i}` },
        headers: { 'if-match': etag, 'content-type': 'application/merge-patch+json' },
      });
      if (r.status !== 200) throw new Error(`PATCH ${r.status}: ${r.text}`);
      etag = r.headers.etag!;
    }
    b = await snapshot(server);
    print('PATCH one line (If-Match)', delta(a, b, N));

    a = await snapshot(server);
    for (let i = 0; i < 10; i++) await request(server.url, 'GET', `/v1/projects/${f.projectId}/items`, { token });
    b = await snapshot(server);
    print('list 450 lines', delta(a, b, 10));
  } finally {
    await server.stop();
    rmSync(log, { force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exitCode = 1;
});
