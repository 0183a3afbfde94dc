import autocannon from 'autocannon';
import { cpuWindow, type CpuWindow } from './cpu.js';

export interface LoadOptions {
  connections: number;
  /** Seconds of load before measuring; the warm-up's figures are thrown away. */
  warmupSeconds: number;
  /** Seconds measured. */
  seconds: number;
}

/** What one measured run produced, in the units the table prints. */
export interface LoadFigures {
  /** Successful (2xx) responses per second over the measured window. */
  perSecond: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  seconds: number;
  /** CPU accounting over the measured window, when the server's pid was given. */
  cpu?: CpuWindow;
}

export function figures(r: autocannon.Result): LoadFigures {
  return {
    perSecond: r['2xx'] / r.duration,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    seconds: r.duration,
  };
}

/** Runs autocannon to completion (no progress bar: it would cost the load generator CPU on a 2-core machine). */
export function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolvePromise, reject) => {
    autocannon({ timeout: 10, ...opts }, (err, result) => (err ? reject(err) : resolvePromise(result)));
  });
}

/** Warm up (JIT, SQLite page cache, connection setup), then measure the same load with fresh counters. */
export async function warmThenMeasure(
  target: Omit<autocannon.Options, 'connections' | 'duration' | 'amount'>,
  o: LoadOptions,
  serverPid?: number,
): Promise<LoadFigures> {
  if (o.warmupSeconds > 0) await cannon({ ...target, connections: o.connections, duration: o.warmupSeconds });
  const closeWindow = serverPid === undefined ? undefined : cpuWindow(serverPid);
  const f = figures(await cannon({ ...target, connections: o.connections, duration: o.seconds }));
  return closeWindow ? { ...f, cpu: closeWindow(f.ok + f.non2xx) } : f;
}

export interface PooledLine {
  id: string;
  etag: string;
}

/**
 * Lines lent to in-flight PATCHes so that no two concurrent requests write the same line, and each PATCH carries the
 * ETag the previous write of that line returned. autocannon clears its per-connection context between requests, so the
 * line travels in the context only from setupRequest to onResponse (both run for the same request, in that order).
 * A line whose write is refused (409/412) keeps a stale ETag, so it leaves the pool and is counted.
 */
export class LinePool {
  private free: PooledLine[];
  conflicts = 0;
  otherFailures = 0;
  written = 0;
  private n = 0;

  constructor(lines: PooledLine[]) {
    this.free = lines.map((l) => ({ ...l }));
  }

  /** An autocannon request that PATCHes a free line with If-Match and returns the line with its new ETag. */
  patchRequest(projectId: string, token: string): autocannon.Request {
    return {
      method: 'PATCH',
      setupRequest: (req, context) => {
        const line = this.free.shift();
        if (!line) throw new Error('LinePool: no free line; give the pool more lines than connections');
        (context as { line?: PooledLine }).line = line;
        return {
          ...req,
          method: 'PATCH',
          path: `/v1/projects/${projectId}/items/${line.id}`,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/merge-patch+json',
            'if-match': line.etag,
          },
          body: JSON.stringify({ finish: `Natural oak, batch ${++this.n}` }),
        };
      },
      onResponse: (status, _body, context, headers) => {
        const line = (context as { line?: PooledLine }).line;
        if (!line) return;
        const etag = headers?.etag;
        if (status === 200 && typeof etag === 'string') {
          line.etag = etag;
          this.written++;
          this.free.push(line);
        } else if (status === 409 || status === 412) {
          this.conflicts++;
        } else {
          this.otherFailures++;
          this.free.push(line);
        }
      },
    };
  }

  get size() {
    return this.free.length;
  }

  lines(): PooledLine[] {
    return [...this.free];
  }
}
