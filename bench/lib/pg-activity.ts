import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

/**
 * What a PostgreSQL cluster on this machine did over a window: the CPU all its processes used (postmaster's children,
 * from /proc), WAL flushes (pg_stat_wal.wal_sync: one fsync per durable commit group) and commits. Read beside the
 * studio server's own CPU, it says where a request's time went on a shared 2-core machine.
 */
export interface PgWindow {
  /** CPU seconds of every process of the cluster over the window, in microseconds per request. */
  postgresUsPerRequest: number;
  walSyncsPerSecond: number;
  commitsPerSecond: number;
}

function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The postmaster and its children, found from one backend's pid. */
function clusterPids(postmaster: number): number[] {
  const pids = [postmaster];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      if (parentOf(pid) === postmaster) pids.push(pid);
    } catch {}
  }
  return pids;
}

/** Opens a window on the cluster `admin` is connected to; close it with the number of requests served. */
export async function pgWindow(admin: pg.Client, database: string): Promise<(requests: number) => Promise<PgWindow>> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const postmaster = parentOf(rows[0]!.pid);
  const counters = async () => {
    const r = await admin.query<{ syncs: string; commits: string }>(
      `SELECT (SELECT wal_sync FROM pg_stat_wal) AS syncs,
              (SELECT xact_commit FROM pg_stat_database WHERE datname = $1) AS commits`,
      [database],
    );
    // Statistics are reported by each backend at intervals; clear this backend's snapshot so the next read is fresh.
    await admin.query('SELECT pg_stat_clear_snapshot()');
    return { syncs: Number(r.rows[0]!.syncs), commits: Number(r.rows[0]!.commits) };
  };
  // Per process: a backend that ends during the window (a pool closing an idle connection) takes its CPU with it, so
  // only what each process used inside the window counts, and one started meanwhile counts whole.
  const cpu0 = new Map(clusterPids(postmaster).map((p) => [p, cpuSeconds(p)]));
  const c0 = await counters();
  const t0 = process.hrtime.bigint();
  return async (requests) => {
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    let cpu = 0;
    for (const p of clusterPids(postmaster)) cpu += cpuSeconds(p) - (cpu0.get(p) ?? 0);
    const c1 = await counters();
    return {
      postgresUsPerRequest: requests > 0 ? (cpu * 1e6) / requests : Number.NaN,
      walSyncsPerSecond: (c1.syncs - c0.syncs) / wall,
      commitsPerSecond: (c1.commits - c0.commits) / wall,
    };
  };
}
