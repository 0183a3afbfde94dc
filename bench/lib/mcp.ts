import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ACTIONS } from '../../actions/index.js';
import type { Caller } from '../../src/core/context.js';
import { ROLE_PERMISSIONS } from '../../src/core/permissions.js';
import type { ResultPage } from '../../src/surfaces/result-pages/paging.js';
import { ActionSearch } from '../../src/surfaces/mcp/search.js';
import { reassemble } from '../../test/mcp/reassemble.js';
import { type Recall, recallAt5, relevanceCases } from '../../test/mcp/relevance-set.js';
import { runAgentSession, type SessionFigures } from '../../test/mcp/agent-session.js';
import { resourceReader, runThirdDay, thirdDayCaller, type ThirdDayFigures } from '../../test/mcp/agent-third-day.js';
import { request } from './api.js';
import { ROOT } from './processes.js';

/**
 * The MCP figures of `npm run bench`: stdio cold start against a minimal SDK server, the size of tools/list,
 * search_actions latency and recall over the relevance set, and paging a 450-line read through read_action_result.
 */

const CLI = join(ROOT, 'dist/studio.mjs');
const MINIMAL = join(ROOT, 'bench/minimal-mcp-server.mjs');
const PROTOCOL_VERSION = '2025-06-18';

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
export const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const bytes = (v: unknown) => Buffer.byteLength(typeof v === 'string' ? v : JSON.stringify(v), 'utf8');

/** A server's environment: this one's, without anything that would load a TypeScript hook into a plain `node`. */
function plainEnv(extra: Record<string, string>): Record<string, string> {
  const env = { ...process.env, ...extra } as Record<string, string>;
  delete env.NODE_OPTIONS;
  return env;
}

/** How to start a stdio server: the arguments to `node` (in the repository folder) and its environment. */
export interface StdioCommand {
  label: string;
  args: string[];
  env: Record<string, string>;
}

/** `studio mcp` exactly as mcp.json says (`node dist/studio.mjs mcp`, no STUDIO_TOKEN) on the given database. */
export const studioMcp = (databaseEnv: Record<string, string>): StdioCommand => ({
  label: 'studio mcp',
  args: [CLI, 'mcp'],
  env: databaseEnv,
});
export const minimalMcp: StdioCommand = { label: 'minimal SDK server', args: [MINIMAL], env: {} };

export interface ColdStart {
  /** Spawn to the initialize result, ms. */
  initializeMs: number;
  /** Spawn to the tools/list result (initialize, notifications/initialized, tools/list in turn, as a client does), ms. */
  toolsListMs: number;
  /** JSON bytes of the tools/list result (what the client gets: `{ tools: [...] }`). */
  toolsListBytes: number;
  toolCount: number;
}

/**
 * One cold start over raw JSON-RPC on the pipes, so that no client library's own start-up is timed: the clock starts
 * just before spawn, initialize is written at once (the pipe holds it until the server reads), tools/list follows the
 * initialize result. Ends by closing stdin and waiting for the process to exit, so that runs never overlap.
 */
export function coldStart(cmd: StdioCommand): Promise<ColdStart> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, cmd.args, {
      cwd: ROOT,
      env: plainEnv(cmd.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    let out = '';
    let err = '';
    let initializeMs = NaN;
    let result: ColdStart | undefined;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd.label}: no tools/list result within 30 s: ${err}`));
    }, 30_000);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        const msg = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] }; error?: unknown };
        if (msg.error) reject(new Error(`${cmd.label}: ${JSON.stringify(msg.error)}`));
        if (msg.id === 1) {
          initializeMs = performance.now() - started;
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (msg.id === 2) {
          result = {
            initializeMs,
            toolsListMs: performance.now() - started,
            toolsListBytes: bytes(msg.result),
            toolCount: msg.result!.tools!.length,
          };
          child.stdin.end();
        }
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (result) resolvePromise(result);
      else reject(new Error(`${cmd.label} exited (${code ?? signal}) before answering tools/list: ${err}`));
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'studio-bench', version: '1.0.0' },
      },
    });
  });
}

export interface ColdStartFigures {
  runs: number;
  initializeMs: { median: number; min: number; max: number; all: number[] };
  toolsListMs: { median: number; min: number; max: number; all: number[] };
  toolsListBytes: number;
  toolCount: number;
}

function summarise(runs: ColdStart[]): ColdStartFigures {
  const stat = (xs: number[]) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), all: xs });
  return {
    runs: runs.length,
    initializeMs: stat(runs.map((r) => r.initializeMs)),
    toolsListMs: stat(runs.map((r) => r.toolsListMs)),
    toolsListBytes: runs[0]!.toolsListBytes,
    toolCount: runs[0]!.toolCount,
  };
}

/**
 * `runs` cold starts of each server, interleaved (A B A B …) so both see the same machine, after one unmeasured start
 * of each (the first start of a process after a build also pays the OS file cache).
 */
export async function coldStarts(commands: StdioCommand[], runs: number): Promise<ColdStartFigures[]> {
  for (const c of commands) await coldStart(c);
  const all = commands.map(() => [] as ColdStart[]);
  for (let i = 0; i < runs; i++) {
    for (const [j, c] of commands.entries()) all[j]!.push(await coldStart(c));
  }
  return all.map(summarise);
}

export interface SearchFigures {
  /** Requests in the set, and those the catalog can serve (an acceptable action exists). */
  cases: number;
  servable: number;
  /** Recall@5 of the half intents and synonyms are tuned on, and of the half held out from tuning. */
  halves: Recall[];
  calls: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * search_actions as the server runs it: the in-process ActionSearch (src/surfaces/mcp/search.ts) built from the
 * catalog, `search(query, caller)` with the default limit of 5, for a designer. Recall@5 as the test counts it; latency
 * per call over `rounds` passes of the whole set after `warmup` passes (JIT, and the index terms each of the set's
 * words reaches, which the term index finds on a word's first search: src/surfaces/mcp/term-index.ts).
 */
export function measureSearch(rounds: number, warmup = 5): SearchFigures {
  const names = new Set(ACTIONS.map((a) => a.name));
  const cases = relevanceCases().filter((c) => c.acceptable.some((a) => names.has(a)));
  const search = new ActionSearch(ACTIONS);
  const caller: Caller = {
    userId: 'u',
    memberId: 'm',
    studioId: 's',
    role: 'designer',
    via: 'api_token',
    tokenId: 't',
    permissions: new Set(ROLE_PERMISSIONS.designer),
  };
  const { halves } = recallAt5(search);
  for (let i = 0; i < warmup; i++) for (const c of cases) search.search(c.query, caller);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const c of cases) {
      const t0 = performance.now();
      search.search(c.query, caller);
      times.push(performance.now() - t0);
    }
  }
  times.sort((a, b) => a - b);
  return {
    cases: relevanceCases().length,
    servable: cases.length,
    halves,
    calls: times.length,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    maxMs: times.at(-1)!,
  };
}

export interface PagingFigures {
  lines: number;
  passes: number;
  pages: number;
  /** First read_action_result call to the last page, per pass. */
  ms: { median: number; min: number; max: number };
  /** Largest structuredContent (or text content) of any page, JSON bytes. */
  largestPageBytes: number;
  /** JSON bytes of the reassembled result (the same as the REST body). */
  resultBytes: number;
  /** search_actions over stdio, the whole round trip through the SDK client (context for the in-process figure). */
  searchRoundTrip: { calls: number; p50Ms: number; p99Ms: number };
}

/**
 * Pages through list_lines of a 450-line project with read_action_result, as an agent does, over stdio from `studio
 * mcp` (SDK client, the server spawned as mcp.json says): the first call without a snapshot, then every node and
 * nextOffset the pages name, until the result is whole. Each pass is checked against the REST body, byte for byte.
 */
export async function measurePaging(
  s: { url: string; token: string; databaseEnv: Record<string, string> },
  projectId: string,
  expectedLines: number,
  passes: number,
): Promise<PagingFigures> {
  const rest = await request(s.url, 'GET', `/v1/projects/${projectId}/items`, { token: s.token });
  if (rest.status !== 200) throw new Error(`list for comparison: ${rest.status}`);
  const client = await connectStudioMcp(s.databaseEnv);
  try {
    const seen = { largestPageBytes: 0, pages: 0 };
    const expected = { projectId, lines: expectedLines, body: rest.text };
    await pagingPass(client, expected, seen); // warm-up: JIT and SQLite page cache in the server process
    const times: number[] = [];
    for (let i = 0; i < passes; i++) times.push(await pagingPass(client, expected, seen));
    const rtt = await searchRoundTrips(client);
    return {
      lines: expectedLines,
      passes,
      pages: seen.pages,
      ms: { median: median(times), min: Math.min(...times), max: Math.max(...times) },
      largestPageBytes: seen.largestPageBytes,
      resultBytes: bytes(rest.text),
      searchRoundTrip: { calls: rtt.length, p50Ms: percentile(rtt, 50), p99Ms: percentile(rtt, 99) },
    };
  } finally {
    await client.close();
  }
}

// An SDK client over stdio to `studio mcp` spawned as mcp.json says, so the figures are what an agent's client sees.
async function connectStudioMcp(databaseEnv: Record<string, string>): Promise<Client> {
  const cmd = studioMcp(databaseEnv);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cmd.args,
    cwd: ROOT,
    env: plainEnv(cmd.env),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'studio-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

// One pass reads every page the result names and checks the whole against the REST body, byte for byte.
async function pagingPass(
  client: Client,
  expected: { projectId: string; lines: number; body: string },
  seen: { largestPageBytes: number; pages: number },
): Promise<number> {
  const { projectId, lines: expectedLines } = expected;
  let snapshot: string | undefined;
  let n = 0;
  const args = { projectId };
  const started = performance.now();
  const whole = await reassemble(async (path, offset) => {
    n++;
    const res = await client.callTool({
      name: 'read_action_result',
      arguments: {
        name: 'list_lines',
        arguments: args,
        ...(snapshot ? { snapshot } : {}),
        ...(path ? { path } : {}),
        offset,
      },
    });
    const sc = res.structuredContent as { result_page?: ResultPage; code?: string };
    if (res.isError || !sc.result_page) throw new Error(`read_action_result: ${JSON.stringify(sc).slice(0, 300)}`);
    seen.largestPageBytes = Math.max(
      seen.largestPageBytes,
      bytes(sc),
      ...(res.content as Array<{ text?: string }>).map((c) => (c.text ? bytes(c.text) : 0)),
    );
    snapshot = sc.result_page.snapshot;
    return sc.result_page;
  });
  const ms = performance.now() - started;
  const items = (whole as { items: unknown[] }).items;
  if (items.length !== expectedLines) throw new Error(`paging: ${items.length} items, expected ${expectedLines}`);
  if (JSON.stringify(whole) !== expected.body)
    throw new Error('paging: the reassembled result differs from the REST body');
  seen.pages = n;
  return ms;
}

// The round trip through the SDK client puts the in-process search figure in context; the first 50 calls warm up.
async function searchRoundTrips(client: Client): Promise<number[]> {
  const rtt: number[] = [];
  const queries = [
    'rename a room',
    'change the finish on the sofa',
    'delete an item',
    'quote for the client',
    'add a purchase order',
  ];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await client.callTool({ name: 'search_actions', arguments: { query: queries[i % queries.length]! } });
    if (i >= 50) rtt.push(performance.now() - t0);
  }
  rtt.sort((a, b) => a - b);
  return rtt;
}

/**
 * The scripted agent session (test/mcp/agent-session.ts) over stdio from `studio mcp`, spawned as mcp.json says on the
 * bench server's database: the demo project for the everyday tasks, the 450-line project for the long read.
 */
export async function measureAgentSession(
  s: { databaseEnv: Record<string, string> },
  largeProjectId: string,
  largeProjectLines: number,
): Promise<SessionFigures> {
  const cmd = studioMcp(s.databaseEnv);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cmd.args,
    cwd: ROOT,
    env: plainEnv(cmd.env),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'studio-bench-agent', version: '1.0.0' });
  await client.connect(transport);
  try {
    return await runAgentSession(
      async (name, args) => {
        const res = await client.callTool({ name, arguments: args });
        const text = (res.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
        return { isError: !!res.isError, text, body: res.structuredContent };
      },
      { projectName: 'Harbour House', largeProjectId, largeProjectLines },
    );
  } finally {
    await client.close();
  }
}

/**
 * The agent's third day (test/mcp/agent-third-day.ts) over stdio from `studio mcp` on the bench server's database,
 * after the second day's session: ten fresh tasks on the demo project, every hint followed as written.
 */
export async function measureThirdDay(s: { databaseEnv: Record<string, string> }): Promise<ThirdDayFigures> {
  const client = await connectStudioMcp(s.databaseEnv);
  try {
    return await runThirdDay(thirdDayCaller(client), resourceReader(client), {
      projectName: 'Harbour House',
      root: ROOT,
    });
  } finally {
    await client.close();
  }
}
