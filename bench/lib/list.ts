import { request, type Fixture } from './api.js';
import { cpuWindow } from './cpu.js';
import type { ServerProcess } from './processes.js';

const log = (s: string) => process.stderr.write(`${s}\n`);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** The whole-schedule list, one request at a time after 20 warm-up requests: p50/p95/p99 ms and the server's CPU. */
export async function measureList(s: ServerProcess, f: Fixture, lines: number, runs: number) {
  const path = `/v1/projects/${f.projectId}/items`;
  const once = async () => {
    const r = await request(s.url, 'GET', path, { token: s.token });
    if (r.status !== 200) throw new Error(`list: ${r.status} ${r.text.slice(0, 300)}`);
    const body = JSON.parse(r.text) as { items: unknown[]; nextCursor: string | null };
    if (body.items.length !== lines || body.nextCursor !== null) {
      throw new Error(
        `list: expected ${lines} items and nextCursor null, got ${body.items.length} and ${body.nextCursor}`,
      );
    }
    return { ms: r.ms, bytes: Buffer.byteLength(r.text) };
  };
  log(`list ${lines} lines: 20 warm-up, ${runs} measured, one at a time`);
  for (let i = 0; i < 20; i++) await once();
  const closeWindow = cpuWindow(s.pid);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const r = await once();
    times.push(r.ms);
    bytes = r.bytes;
  }
  const cpu = closeWindow(runs);
  times.sort((a, b) => a - b);
  return {
    runs: runs,
    items: lines,
    bytes,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: times.at(-1)!,
    cpu,
  };
}
