import { createProjectWithLines, request, type Fixture } from './api.js';
import { measureList } from './list.js';
import { LinePool, warmThenMeasure, type LoadFigures, type LoadOptions } from './load.js';
import { startPeer, type ServerProcess } from './processes.js';
import type { Check } from './report.js';

/**
 * Issue 27's fair anchor: the studio server against the hand-written peer (bench/peer/server.mjs) on the same database
 * file, for the same three requests. The peer's answers are first asserted byte for byte equal to the studio server's
 * (bodies and ETags), then both are loaded in interleaved rounds (studio, peer, studio, peer…), so a slow moment of
 * this shared machine falls on both alike. Each round gives a ratio; the median round ratio is the figure, and every
 * round, with the server CPU per request, stays in the JSON.
 */

const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export interface PeerOptions {
  load: LoadOptions;
  rounds: number;
  listLines: number;
  listRuns: number;
  writeLines: number;
}

/** The same request to both servers must answer the same status, ETag and body bytes. */
async function sameAnswer(studio: ServerProcess, peer: ServerProcess, path: string, what: string) {
  const [a, b] = [
    await request(studio.url, 'GET', path, { token: studio.token }),
    await request(peer.url, 'GET', path, { token: studio.token }),
  ];
  if (a.status !== 200 || b.status !== 200 || a.text !== b.text || a.headers.etag !== b.headers.etag) {
    throw new Error(
      `peer: ${what} differs from the studio server's: ${a.status} ${a.headers.etag} ${a.text.length} bytes vs ${b.status} ${b.headers.etag} ${b.text.length} bytes\n${a.text.slice(0, 400)}\n${b.text.slice(0, 400)}`,
    );
  }
  return a;
}

/** A PATCH by one server must answer exactly what the other then reads (body and ETag). */
async function sameWrite(writer: ServerProcess, reader: ServerProcess, projectId: string, lineId: string, who: string) {
  const path = `/v1/projects/${projectId}/items/${lineId}`;
  const before = await request(reader.url, 'GET', path, { token: writer.token });
  const w = await request(writer.url, 'PATCH', path, {
    token: writer.token,
    body: { finish: `Checked by ${who}` },
    headers: { 'if-match': before.headers.etag as string },
  });
  const r = await request(reader.url, 'GET', path, { token: writer.token });
  if (w.status !== 200 || w.text !== r.text || w.headers.etag !== r.headers.etag) {
    throw new Error(`peer: a PATCH by the ${who} answers other bytes than the line then reads:\n${w.text}\n${r.text}`);
  }
}

/** Asserts the peer answers what the studio server answers, for each request measured. */
async function assertSameBytes(studio: ServerProcess, peer: ServerProcess, list: Fixture, writes: Fixture) {
  const line = await sameAnswer(studio, peer, `/v1/projects/${list.projectId}/items/${list.lines[0]!.id}`, 'GET line');
  const all = await sameAnswer(studio, peer, `/v1/projects/${list.projectId}/items`, 'the list');
  const [a, b] = writes.lines.slice(-2);
  await sameWrite(studio, peer, writes.projectId, a!.id, 'studio server');
  await sameWrite(peer, studio, writes.projectId, b!.id, 'peer');
  log(`peer: same bytes as the studio server (line ${line.text.length} B, list ${all.text.length} B, both PATCHes)`);
  // The pools must start from the lines' current tags; these two lines leave the pools.
  writes.lines.splice(-2);
}

interface Pair {
  studio: LoadFigures[];
  peer: LoadFigures[];
}

/** Both servers' write pools, each on its own lines of one project, so no write of one conflicts with the other's. */
function pools(studio: ServerProcess, writes: Fixture) {
  const half = Math.floor(writes.lines.length / 2);
  const studioPool = new LinePool(writes.lines.slice(0, half));
  const peerPool = new LinePool(writes.lines.slice(half));
  return {
    studioPool,
    peerPool,
    studioTarget: { url: studio.url, requests: [studioPool.patchRequest(writes.projectId, studio.token)] },
    peerTarget: (peer: ServerProcess) => ({
      url: peer.url,
      requests: [peerPool.patchRequest(writes.projectId, studio.token)],
    }),
  };
}

/** GET one line and PATCH FULL, studio then peer, round after round. */
async function interleave(studio: ServerProcess, peer: ServerProcess, list: Fixture, writes: Fixture, o: PeerOptions) {
  const get = (s: ServerProcess) => ({
    url: `${s.url}/v1/projects/${list.projectId}/items/${list.lines[1]!.id}`,
    headers: { authorization: `Bearer ${studio.token}` },
  });
  const p = pools(studio, writes);
  const rounds = { get: { studio: [], peer: [] } as Pair, patch: { studio: [], peer: [] } as Pair };
  for (let round = 1; round <= o.rounds; round++) {
    const step = (what: string) => log(`peer round ${round}/${o.rounds}: ${what}`);
    step('GET one line, studio');
    rounds.get.studio.push(await warmThenMeasure(get(studio), o.load, studio.pid));
    step('GET one line, peer');
    rounds.get.peer.push(await warmThenMeasure(get(peer), o.load, peer.pid));
    step('PATCH FULL, studio');
    rounds.patch.studio.push(await warmThenMeasure(p.studioTarget, o.load, studio.pid));
    step('PATCH FULL, peer');
    rounds.patch.peer.push(await warmThenMeasure(p.peerTarget(peer), o.load, peer.pid));
  }
  const failures = {
    studio: { conflicts: p.studioPool.conflicts, other: p.studioPool.otherFailures },
    peer: { conflicts: p.peerPool.conflicts, other: p.peerPool.otherFailures },
  };
  return { rounds, failures };
}

/** The list, one request at a time, alternating servers in as many rounds. */
async function lists(studio: ServerProcess, peer: ServerProcess, list: Fixture, o: PeerOptions) {
  const runs = Math.max(20, Math.round(o.listRuns / o.rounds));
  const out = {
    studio: [] as Awaited<ReturnType<typeof measureList>>[],
    peer: [] as Awaited<ReturnType<typeof measureList>>[],
  };
  for (let round = 1; round <= o.rounds; round++) {
    out.studio.push(await measureList(studio, list, o.listLines, runs));
    out.peer.push(await measureList(peer, list, o.listLines, runs));
  }
  return out;
}

const cpuOf = (f: LoadFigures) => f.cpu?.serverUsPerRequest ?? Number.NaN;
const us = (n: number) => `${n.toFixed(0)} µs`;

/** The table rows: each ratio is the median of the rounds' own ratios, with both sides' medians beside it. */
interface PeerFigures {
  rounds: { get: Pair; patch: Pair };
  list: Awaited<ReturnType<typeof lists>>;
  listLines: number;
}

function peerChecks(m: PeerFigures): Check[] {
  const rows = (name: string, unit: string, pair: Pair, goal: number): Check[] => {
    const ratios = pair.studio.map((s, i) => s.perSecond / pair.peer[i]!.perSecond);
    const s = median(pair.studio.map((f) => f.perSecond));
    const p = median(pair.peer.map((f) => f.perSecond));
    const sCpu = median(pair.studio.map(cpuOf));
    const pCpu = median(pair.peer.map(cpuOf));
    return [
      {
        name: `${name}, studio server`,
        value: s,
        unit,
        note: `median of ${pair.studio.length} rounds; server ${us(sCpu)} CPU/req; rounds ${pair.studio.map((f) => f.perSecond.toFixed(0)).join(', ')}`,
      },
      {
        name: `${name}, hand-written peer`,
        value: p,
        unit,
        note: `median of ${pair.peer.length} rounds; server ${us(pCpu)} CPU/req; rounds ${pair.peer.map((f) => f.perSecond.toFixed(0)).join(', ')}`,
      },
      {
        name: `${name}, studio / peer`,
        value: median(ratios),
        unit: '×',
        target: { atLeast: goal },
        note: `median of the rounds' ratios (${ratios.map((r) => r.toFixed(2)).join(', ')}); CPU/req ${(sCpu / pCpu).toFixed(2)}× the peer's`,
      },
    ];
  };
  const sList = median(m.list.studio.map((l) => l.p50));
  const pList = median(m.list.peer.map((l) => l.p50));
  const listCpu = (ls: typeof m.list.studio) => median(ls.map((l) => l.cpu.serverUsPerRequest));
  return [
    ...rows('GET one line', 'req/s', m.rounds.get, 0.7),
    ...rows('PATCH line, If-Match, FULL', 'writes/s', m.rounds.patch, 0.7),
    {
      name: `list ${m.listLines} lines p50, studio server`,
      value: sList,
      unit: 'ms',
      note: `median of ${m.list.studio.length} rounds' p50; server ${us(listCpu(m.list.studio))} CPU/req`,
    },
    {
      name: `list ${m.listLines} lines p50, hand-written peer`,
      value: pList,
      unit: 'ms',
      note: `median of ${m.list.peer.length} rounds' p50; server ${us(listCpu(m.list.peer))} CPU/req`,
    },
    {
      name: `list ${m.listLines} lines p50, studio / peer`,
      value: sList / pList,
      unit: '×',
      target: { atMost: 1.5 },
      note: `CPU/req ${(listCpu(m.list.studio) / listCpu(m.list.peer)).toFixed(2)}× the peer's`,
    },
  ];
}

/**
 * Starts the peer on the studio server's database, asserts the same bytes, and measures GET, PATCH FULL and the list
 * against it. `list` is a project of `listLines` lines; the write lines are made here.
 */
export async function measureAgainstPeer(studio: ServerProcess, list: Fixture, o: PeerOptions) {
  const writes = await createProjectWithLines(studio.url, studio.token, 'Bench peer writes', 2 * o.writeLines + 2);
  const peer = await startPeer(studio);
  try {
    log(`peer ${peer.url} (pid ${peer.pid}) on ${studio.databasePath}`);
    await assertSameBytes(studio, peer, list, writes);
    const { rounds, failures } = await interleave(studio, peer, list, writes, o);
    const listFigures = await lists(studio, peer, list, o);
    const figures = { rounds, failures, list: listFigures, listLines: o.listLines };
    return { ...figures, checks: peerChecks(figures) };
  } finally {
    await peer.stop();
  }
}
