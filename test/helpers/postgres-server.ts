/**
 * A real, throwaway PostgreSQL server for the test suite: `initdb` into a temporary folder, `pg_ctl start` listening on
 * a free loopback port only, and `pg_ctl stop` plus removal at the end. PostgreSQL refuses to run as root, so under
 * root (CI) the cluster belongs to the `postgres` system user Debian's package creates, and its commands run through
 * `runuser`. Missing binaries fail loudly: the suite runs every store test on both dialects, never skips one.
 *
 * STUDIO_TEST_POSTGRES_URL names an already running server instead (a database the tests may create databases in).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresServer {
  /** A URL to the `postgres` maintenance database, as a superuser without password (loopback, trust). */
  url: string;
  /** The same database through the server's Unix socket, as a host running PostgreSQL beside the studio connects. */
  socketUrl?: string;
  stop(): void;
}

const BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

function findBinary(name: string): string {
  for (const dir of BIN_DIRS) {
    try {
      execFileSync(join(dir, name), ['--version'], { stdio: 'ignore' });
      return join(dir, name);
    } catch {}
  }
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      `PostgreSQL's ${name} was not found: install PostgreSQL 15 or newer (Debian: apt-get install -y postgresql), or set STUDIO_TEST_POSTGRES_URL to a running server. The suite runs on both SQLite and PostgreSQL.`,
    );
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `durable`: fsync and synchronous_commit on, as a production server runs (the bench); off by default, since a test
 * cluster that vanishes with its folder needs no crash safety and the suite runs faster without it.
 */
export async function startPostgres(opts: { durable?: boolean } = {}): Promise<PostgresServer> {
  const given = process.env.STUDIO_TEST_POSTGRES_URL;
  if (given) return { url: given, stop: () => {} };
  const initdb = findBinary('initdb');
  const pgCtl = findBinary('pg_ctl');
  const asRoot = process.getuid?.() === 0;
  const run = (file: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe' })
      : execFileSync(file, args, { stdio: 'pipe' });
  const dir = mkdtempSync(join(tmpdir(), 'studio-pg-'));
  chmodSync(dir, 0o777); // the postgres user writes its cluster here; removed at stop
  const data = join(dir, 'data');
  const port = await freePort();
  // C collation: the same byte order as SQLite's, so lists sort alike on both stores.
  run(initdb, [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--locale=C',
    '--encoding=UTF8',
    ...(opts.durable ? [] : ['--no-sync']),
  ]);
  const options = [
    `-p ${port}`,
    `-c listen_addresses=127.0.0.1`,
    `-c unix_socket_directories=${dir}`,
    '-c max_connections=200',
    ...(opts.durable ? ['-c fsync=on', '-c synchronous_commit=on'] : ['-c fsync=off', '-c synchronous_commit=off']),
  ].join(' ');
  run(pgCtl, ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    socketUrl: `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(dir)}`,
    stop() {
      try {
        run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
