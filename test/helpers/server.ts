import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freshDatabase } from './test-database.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'dist/studio.mjs');

export interface RunningServer {
  url: string;
  /** The demo owner's token, as printed by the first start. */
  token: string;
  /** The demo share's page (`…/s/<token>`), as the first start prints it. */
  clientUrl?: string;
  /** The demo's decide link (`…/s/<token>`): its issued estimate for the client to decide, as the first start prints it. */
  decisionUrl?: string;
  /** The demo owner's password for `/login`, as the first start prints it. */
  password?: string;
  /** The server's database: a file path, or a postgres:// URL (see test-database.ts). */
  database: string;
  /** The environment that names that database, for another process over it (a second start, `studio mcp`). */
  databaseEnv: Record<string, string>;
  dir: string;
  proc: ChildProcess;
  stderr: () => string;
  /** Everything the process printed on stdout so far: the banner, and its log lines (JSON, one per request). */
  stdout: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the real server as a process (`studio serve`) on a free port with a fresh database, and reads the URL and
 * the owner's token from what it prints, exactly as a newcomer would.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const db = await freshDatabase();
  const proc = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, ...db.env, STUDIO_PORT: '0', STUDIO_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const { url, token, clientUrl, decisionUrl, password } = await new Promise<{
    url: string;
    token: string;
    clientUrl?: string;
    decisionUrl?: string;
    password?: string;
  }>((resolvePromise, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const token = /Token\s+(studio_\S+)/.exec(out)?.[1];
      const clientUrl = /Client\s+(http:\/\/\S+)/.exec(out)?.[1];
      const decisionUrl = /Decision\s+(http:\/\/\S+)/.exec(out)?.[1];
      const password = /Password\s+(\S+)/.exec(out)?.[1];
      if (url && token) resolvePromise({ url, token, clientUrl, decisionUrl, password });
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
  return {
    url,
    token,
    clientUrl,
    decisionUrl,
    password,
    database: db.locator,
    databaseEnv: db.env,
    dir: db.dir,
    proc,
    stderr: () => err,
    stdout: () => out,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      await db.drop();
    },
  };
}

/**
 * How an e2e suite starts its server process: before the file's first test (`startServer(env)`), handed to `take`;
 * stopped after the file's last test.
 */
export function openServer(take: (server: RunningServer) => void, env?: Record<string, string>) {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer(env);
    take(server);
  });
  afterAll(async () => server?.stop());
}
