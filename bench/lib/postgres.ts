/**
 * `npm run bench -- --dialect postgres`: the same server on PostgreSQL, measured beside the SQLite figures of the same
 * run. A throwaway PostgreSQL cluster runs durable (fsync and synchronous_commit on, as in production) on loopback;
 * the studio server runs as its own process on it, then a second process on the same database for the scale-out row.
 */
import pg from 'pg';
import { startPostgres } from '../../test/helpers/postgres-server.js';
import { createProjectWithLines, type Fixture } from './api.js';
import { measureList } from './list.js';
import { LinePool, warmThenMeasure, type LoadFigures, type LoadOptions } from './load.js';
import { type ColdStartFigures, coldStarts, measurePaging, studioMcp } from './mcp.js';
import { startAnotherStudio, startStudio, type ServerProcess } from './processes.js';
import type { Check } from './report.js';

const log = (s: string) => process.stderr.write(`${s}\n`);
const best = (rounds: LoadFigures[]) => rounds.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
const cpuPerRequest = (f: LoadFigures) => f.cpu?.serverUsPerRequest ?? Number.NaN;

/** The SQLite figures of the same run that the PostgreSQL ones are held against. */
export interface SqliteFigures {
  getLine: LoadFigures;
  patch: LoadFigures;
  listP50: number;
  mcpInitializeMs: number;
  pagingMs: number;
}

export interface PostgresOptions {
  load: LoadOptions;
  rounds: number;
  listLines: number;
  listRuns: number;
  writeLines: number;
  mcpColdRuns: number;
  pagingPasses: number;
}

export async function measurePostgres(o: PostgresOptions, sqlite: SqliteFigures) {
  log('PostgreSQL: starting a durable throwaway cluster (fsync, synchronous_commit on)');
  const server = await startPostgres({ durable: true });
  const stops: Array<() => Promise<void>> = [];
  try {
    const a = await startStudio({ STUDIO_DATABASE_URL: await createBenchDatabase(server.url) });
    stops.push(a.stop);
    log(`PostgreSQL: studio ${a.url} (pid ${a.pid}); fixtures through the API`);
    const list = await createProjectWithLines(a.url, a.token, 'Bench list', o.listLines);
    const writes = await writePool(a, 'PG', o.writeLines);
    const rounds = await loadRounds(a, list, writes, o);
    const g = best(rounds.get);
    const p = best(rounds.patch);
    const listFigures = await measureList(a, list, o.listLines, o.listRuns);

    log(`PostgreSQL: MCP cold start (${o.mcpColdRuns} runs) and paging ${o.listLines} lines`);
    const [cold] = await coldStarts([studioMcp(a.databaseEnv)], o.mcpColdRuns);
    const paging = await measurePaging(a, list.projectId, o.listLines, o.pagingPasses);

    log('PostgreSQL: a second process on the same database; PATCH through both at once');
    const b = await startAnotherStudio(a);
    stops.push(b.stop);
    const { twoA, twoB, refusedBoth } = await patchThroughBoth(a, b, o);
    const combined = twoA!.perSecond + twoB!.perSecond;
    const refused = refusedBoth + writes.lines.otherFailures;

    const checks = postgresChecks(
      { g, p, listFigures, cold, paging, twoA, twoB, combined, refused, writes },
      sqlite,
      o,
    );
    return {
      checks,
      results: {
        getLine: g,
        patch: p,
        rounds,
        list: listFigures,
        twoProcesses: { a: twoA, b: twoB, combined },
        cold,
        paging,
      },
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    server.stop();
  }
}

// The bench gets a database of its own on the throwaway cluster, so nothing else's tables change its figures.
async function createBenchDatabase(serverUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE studio_bench');
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = '/studio_bench';
  return url.toString();
}

type WritePool = Awaited<ReturnType<typeof writePool>>;

// Each load writes lines of its own project, so concurrent loads never conflict on a line.
async function writePool(s: ServerProcess, label: string, writeLines: number) {
  const f = await createProjectWithLines(s.url, s.token, `Bench writes (${label})`, writeLines);
  const lines = new LinePool(f.lines);
  return { lines, target: { url: s.url, requests: [lines.patchRequest(f.projectId, s.token)] } };
}

// GET and PATCH in interleaved rounds, as on SQLite, so the two stores are measured alike.
async function loadRounds(a: ServerProcess, list: Fixture, writes: WritePool, o: PostgresOptions) {
  const getLine = {
    url: `${a.url}/v1/projects/${list.projectId}/items/${list.lines[0]!.id}`,
    headers: { authorization: `Bearer ${a.token}` },
  };
  const rounds = { get: [] as LoadFigures[], patch: [] as LoadFigures[] };
  for (let r = 1; r <= o.rounds; r++) {
    log(`PostgreSQL round ${r}/${o.rounds}: GET one line, PATCH`);
    rounds.get.push(await warmThenMeasure(getLine, o.load, a.pid));
    rounds.patch.push(await warmThenMeasure(writes.target, o.load, a.pid));
  }
  return rounds;
}

// The scale-out row: two processes write through the one database at once.
async function patchThroughBoth(a: ServerProcess, b: ServerProcess, o: PostgresOptions) {
  const writesA = await writePool(a, 'PG, process A', o.writeLines);
  const writesB = await writePool(b, 'PG, process B', o.writeLines);
  const [twoA, twoB] = await Promise.all([
    warmThenMeasure(writesA.target, o.load, a.pid),
    warmThenMeasure(writesB.target, o.load, b.pid),
  ]);
  return { twoA, twoB, refusedBoth: writesA.lines.otherFailures + writesB.lines.otherFailures };
}

/** The PostgreSQL figures the rows are read from. */
interface PostgresFigures {
  g: LoadFigures;
  p: LoadFigures;
  listFigures: Awaited<ReturnType<typeof measureList>>;
  cold: ColdStartFigures | undefined;
  paging: Awaited<ReturnType<typeof measurePaging>>;
  twoA: LoadFigures | undefined;
  twoB: LoadFigures | undefined;
  combined: number;
  refused: number;
  writes: WritePool;
}

// Every PostgreSQL row is held against SQLite's figure of the same run: the targets are ratios, not absolutes.
function postgresChecks(f: PostgresFigures, sqlite: SqliteFigures, o: PostgresOptions): Check[] {
  const { g, p, listFigures, cold, paging, twoA, twoB, combined, refused, writes } = f;
  return [
    {
      name: 'PG: GET one line',
      value: g.perSecond,
      unit: 'req/s',
      note: `best of ${o.rounds}; p50 ${g.latencyMs.p50} ms; server ${cpuPerRequest(g).toFixed(0)} µs CPU/req (SQLite ${cpuPerRequest(sqlite.getLine).toFixed(0)})`,
    },
    {
      name: 'PG: GET one line, CPU/request ÷ SQLite',
      value: cpuPerRequest(g) / cpuPerRequest(sqlite.getLine),
      unit: '×',
      target: { atMost: 2 },
    },
    {
      name: 'PG: PATCH line, If-Match, synchronous_commit=on',
      value: p.perSecond,
      unit: 'writes/s',
      target: { atLeast: 1000 },
      note: `best of ${o.rounds}; p50 ${p.latencyMs.p50} ms, conflicts ${writes.lines.conflicts}, other failures ${refused}; server ${cpuPerRequest(p).toFixed(0)} µs CPU/req (SQLite ${cpuPerRequest(sqlite.patch).toFixed(0)})`,
    },
    {
      name: 'PG: PATCH line, CPU/request ÷ SQLite',
      value: cpuPerRequest(p) / cpuPerRequest(sqlite.patch),
      unit: '×',
      target: { atMost: 2 },
    },
    {
      name: `PG: list ${o.listLines} lines p50`,
      value: listFigures.p50,
      unit: 'ms',
      note: `SQLite ${sqlite.listP50.toFixed(2)} ms; p95 ${listFigures.p95.toFixed(2)} ms`,
    },
    {
      name: `PG: list ${o.listLines} lines p50 ÷ SQLite`,
      value: listFigures.p50 / sqlite.listP50,
      unit: '×',
      target: { atMost: 2 },
    },
    {
      name: 'PG: two processes, PATCH combined',
      value: combined,
      unit: 'writes/s',
      note: `A ${twoA!.perSecond.toFixed(0)}/s at ${cpuPerRequest(twoA!).toFixed(0)} µs CPU/req, B ${twoB!.perSecond.toFixed(0)}/s at ${cpuPerRequest(twoB!).toFixed(0)} µs CPU/req; one process ${p.perSecond.toFixed(0)}/s. Write groups take one advisory lock, so processes share the writer; reads scale with them`,
    },
    {
      name: 'PG: MCP cold start → initialize ÷ SQLite',
      value: cold!.initializeMs.median / sqlite.mcpInitializeMs,
      unit: '×',
      target: { atMost: 2 },
      note: `PG ${cold!.initializeMs.median.toFixed(0)} ms, SQLite ${sqlite.mcpInitializeMs.toFixed(0)} ms`,
    },
    {
      name: `PG: MCP paging ${o.listLines} lines ÷ SQLite`,
      value: paging.ms.median / sqlite.pagingMs,
      unit: '×',
      target: { atMost: 2 },
      note: `PG ${paging.ms.median.toFixed(0)} ms, SQLite ${sqlite.pagingMs.toFixed(0)} ms; ${paging.pages} pages`,
    },
  ];
}
