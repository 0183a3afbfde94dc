import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/studio.mjs');
const HELLO = join(ROOT, 'bench/hello-server.ts');
const PEER = join(ROOT, 'bench/peer/server.mjs');

/** A server under test, in its own process so that it never shares a core's event loop with the load generator. */
export interface ServerProcess {
  url: string;
  pid: number;
  /** The demo owner's token (studio server only). */
  token: string;
  /** The server's SQLite file (studio server only), e.g. for `studio mcp` on the same data. */
  databasePath: string;
  /** The environment naming the server's database (the file, or STUDIO_DATABASE_URL), for another process on it. */
  databaseEnv: Record<string, string>;
  stop(): Promise<void>;
  /**
   * Studio server only: stops it and starts it again on the same database, as a server runs after its first start
   * (the demo is not seeded again, and its token still works). The returned process is the one to stop.
   */
  restart?(): Promise<ServerProcess>;
}

/** Spawns a process and waits until its stdout has matched every pattern; the first group of each is returned. */
function spawnAndRead(args: string[], env: Record<string, string>, patterns: RegExp[], cleanup: () => void) {
  const proc: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const ready = new Promise<string[]>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start in 30 s: ${out}${err}`)), 30_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const found = patterns.map((p) => p.exec(out)?.[1]);
      if (found.every((f) => f !== undefined)) {
        clearTimeout(timer);
        resolvePromise(found as string[]);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}: ${err}`));
    });
  });
  /** Ends the process (SIGTERM, waiting for it to exit) and leaves its files. */
  const end = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
  };
  const stop = async () => {
    await end();
    cleanup();
  };
  return { proc, ready, stop, end };
}

/**
 * `studio serve` exactly as a user starts it: a fresh database in a temp folder, a free port, URL and token read from
 * stdout. `nodeArgs` go before the script (e.g. `--cpu-prof` for bench/profile.ts). BENCH_STUDIO_CLI (in `env` or the
 * environment) names another build's dist/studio.mjs, to measure it against this one.
 */
export async function startStudio(env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'studio-bench-'));
  const databasePath = join(dir, 'studio.sqlite');
  const serveEnv = { STUDIO_DATABASE: databasePath, STUDIO_PORT: '0', STUDIO_LOG_LEVEL: 'warn', ...env };
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const cli = env.BENCH_STUDIO_CLI ?? process.env.BENCH_STUDIO_CLI ?? CLI;
  const { proc, ready, stop, end } = spawnAndRead(
    [...nodeArgs, cli, 'serve'],
    serveEnv,
    [/listening on (http:\/\/\S+)/, /Token\s+(studio_\S+)/],
    cleanup,
  );
  const [url, token] = await ready.catch(async (e) => {
    await stop();
    throw e;
  });
  const databaseEnv = {
    STUDIO_DATABASE: databasePath,
    ...(env.STUDIO_DATABASE_URL ? { STUDIO_DATABASE_URL: env.STUDIO_DATABASE_URL } : {}),
  };
  const first = { url: url!, token: token!, databasePath, databaseEnv, pid: proc.pid!, stop };
  const restart = async (): Promise<ServerProcess> => {
    await end();
    // The demo exists, so the token is not printed again: only the URL is read.
    const again = spawnAndRead([...nodeArgs, cli, 'serve'], serveEnv, [/listening on (http:\/\/\S+)/], cleanup);
    const [url2] = await again.ready.catch(async (e) => {
      await again.stop();
      throw e;
    });
    return { ...first, url: url2!, pid: again.proc.pid!, stop: again.stop };
  };
  return { ...first, restart };
}

/**
 * Another `studio serve` process on a database a first one created (several processes behind one address): it prints
 * no token (the demo exists), so only its URL is read; the first process's token works on it.
 */
export async function startAnotherStudio(first: ServerProcess): Promise<ServerProcess> {
  const { proc, ready, stop } = spawnAndRead(
    [CLI, 'serve'],
    { ...first.databaseEnv, STUDIO_PORT: '0', STUDIO_LOG_LEVEL: 'warn' },
    [/listening on (http:\/\/\S+)/],
    () => {},
  );
  const [url] = await ready.catch(async (e) => {
    await stop();
    throw e;
  });
  return { ...first, url: url!, pid: proc.pid!, stop };
}

/** The bare fastify baseline, started the same way (its own process, free port, URL from stdout). */
export async function startHello(nodeArgs: string[] = []): Promise<ServerProcess> {
  const { proc, ready, stop } = spawnAndRead(
    [...nodeArgs, '--import', 'tsx', HELLO],
    { PORT: '0' },
    [/listening on (http:\/\/\S+)/],
    () => {},
  );
  const [url] = await ready.catch(async (e) => {
    await stop();
    throw e;
  });
  return { url: url!, token: '', databasePath: '', databaseEnv: {}, pid: proc.pid!, stop };
}

/**
 * The hand-written peer (bench/peer/server.mjs) on a studio server's database file, with the same durability: plain
 * `node`, no loader, its own process and free port like the others; `nodeArgs` and `env` as startStudio takes them (a
 * profiler preloaded, bench/profile.ts get-peer).
 */
export async function startPeer(
  studio: ServerProcess,
  synchronous = 'FULL',
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const { proc, ready, stop } = spawnAndRead(
    [...nodeArgs, PEER],
    { STUDIO_DATABASE: studio.databasePath, STUDIO_SYNCHRONOUS: synchronous, PORT: '0', ...env },
    [/listening on (http:\/\/\S+)/],
    () => {},
  );
  const [url] = await ready.catch(async (e) => {
    await stop();
    throw e;
  });
  return { ...studio, url: url!, pid: proc.pid!, stop };
}

/** Resident and peak resident memory of a process in MB, from /proc (Linux). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}
