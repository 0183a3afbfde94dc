#!/usr/bin/env node
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, projectRoot } from './config.js';
import { migrate } from '../db/sqlite.js';
import { nowIso } from './core/ids.js';

const HELP: Record<string, string> = {
  main: `studio: the studio server (schedules, client documents, imports, procurement) for people and agents.

Usage: studio <command> [options]   (studio --version prints the version)

Commands:
  serve          Start the HTTP server (REST /v1, tRPC /api/trpc, docs). Seeds a demo studio on first start.
  mcp            Run an MCP server on stdin/stdout (for Claude Desktop and other MCP clients).
  migrate        Create or upgrade the database, then exit.
  token create   Mint an API token for a member and print it once.
  password set   Give a person a password (from standard input) for signing in.
  password reset Give a person a new random password for signing in and print it once.
  migrate-data   Copy a whole SQLite database into an empty PostgreSQL database, verified.
  sweep          Remove stored files nothing refers to any more (the server also does, every STUDIO_SWEEP_HOURS).

Run "studio <command> --help" for a command's options. Configuration comes from the environment:
  STUDIO_PORT (3000), STUDIO_HOST (127.0.0.1), STUDIO_DATABASE (data/studio.sqlite), STUDIO_DATABASE_URL
  (postgres://…, instead of the file), STUDIO_BASE_URL,
  STUDIO_DOCS_URL, STUDIO_BODY_LIMIT (bytes, 1048576), STUDIO_NO_DEMO=1, STUDIO_TOKEN (for mcp),
  STUDIO_ALLOWED_ORIGINS, STUDIO_HEADERS_TIMEOUT_MS, STUDIO_REQUEST_TIMEOUT_MS, STUDIO_KEEP_ALIVE_TIMEOUT_MS,
  STUDIO_IDLE_TIMEOUT_MS, STUDIO_MAX_INFLIGHT_BODIES, STUDIO_STORAGE_QUOTA_BYTES, STUDIO_SWEEP_HOURS, STUDIO_LOG_LEVEL
  (silent, error, warn, info, debug), STUDIO_LOG_FORMAT (json, text) (see the README's Configuration table).`,
  serve: `studio serve: start the HTTP server.

  Listens on STUDIO_HOST:STUDIO_PORT (127.0.0.1:3000). On an empty database it creates the demo studio
  "Hartley & Rowe Interiors" with the project Harbour House, and prints the owner's API token that once; it is
  kept in data/owner-token next to the database, and later starts print where. The owner's password for /login is
  printed that once too and kept nowhere (studio password reset gives a new one). Set STUDIO_NO_DEMO=1 to start empty.`,
  mcp: `studio mcp: serve MCP over stdio.

  Acts for the member whose API token is in STUDIO_TOKEN. Without it, acts for the owner of the database's only
  studio (anyone who can start the server can read the database file anyway) and says so on stderr.`,
  migrate: `studio migrate: apply pending database migrations to STUDIO_DATABASE_URL (PostgreSQL) or STUDIO_DATABASE and exit.`,
  'migrate-data': `studio migrate-data --from sqlite:PATH --to postgres://USER:PASSWORD@HOST:5432/DB

  Copies every table of the SQLite database into the PostgreSQL database (migrated to the same schema first, and
  holding no studio yet) in one transaction, then verifies it: the same row count in every table, and every studio's
  audit hash chain recomputed on PostgreSQL. On any failure the target is left empty. Stop the server first.`,
  sweep: `studio sweep [--grace-minutes N]

  Removes the files in STUDIO_BLOB_DIR that no photograph, document, package or import refers to any more (uploads
  refused after checking, canceled imports, renders never recorded, a turned photograph's earlier sizes) and that are
  older than N minutes (60), so an upload still on its way is left; then staged uploads a crash left behind. Prints
  what it removed. Safe while the server runs; a server running workers does the same every STUDIO_SWEEP_HOURS (24).`,
  token: `studio token create [--email EMAIL] [--name NAME] [--studio STUDIO_ID]

  Mints an API token for the member with that email (default: the owner of the only studio) and prints it.
  The token is shown once and stored only as a hash.`,
  password: `studio password set --email EMAIL [--generate]
studio password reset [--email EMAIL]

  Gives a person a password for signing in (/login, invitations, and the page where an MCP client connects over
  OAuth), stored only as a scrypt digest; at least 10 characters. "set" reads it from standard input (at a terminal
  it is asked for and not shown), or with --generate makes one up and prints it once. "reset" makes one up and prints
  it once, for the owner of the only studio unless --email names someone (the demo owner's is printed on the first
  start only). Either ends the person's sessions and lifts a sign-in lock.`,
};

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP.main);
    return;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    console.log(packageVersion());
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve': {
      if (wantsHelp) return console.log(HELP.serve);
      const { serve, banner } = await import('./serve.js');
      // The first start seeds the demo in a child running this same file (src/seed/first-start.ts).
      const started = await serve(config, { seedScript: fileURLToPath(import.meta.url) });
      console.log(banner(started, config));
      return;
    }
    case 'seed-demo': {
      // Internal, run by `serve` on its first start: seeds the demo studio in this short-lived process and exits.
      const { seedFirstStartHere } = await import('./seed/first-start.js');
      await seedFirstStartHere(config);
      return;
    }
    case 'mcp': {
      if (wantsHelp) return console.log(HELP.mcp);
      const { runStdioMcp } = await import('./mcp-stdio.js');
      await runStdioMcp(config);
      return;
    }
    case 'migrate': {
      if (wantsHelp) return console.log(HELP.migrate);
      const { applied, location } = await migrateDatabase(config);
      console.log(
        applied.length ? `Applied migrations ${applied.join(', ')} to ${location}.` : `${location} is up to date.`,
      );
      return;
    }
    case 'migrate-data': {
      if (wantsHelp) return console.log(HELP['migrate-data']);
      return migrateDataCommand(rest);
    }
    case 'sweep': {
      if (wantsHelp) return console.log(HELP.sweep);
      return (await import('./sweep-command.js')).sweepCommand(config, rest);
    }
    case 'token': {
      if (wantsHelp || rest[0] !== 'create') return console.log(HELP.token);
      const { values } = parseArgs({
        args: rest.slice(1),
        options: { email: { type: 'string' }, name: { type: 'string' }, studio: { type: 'string' } },
      });
      await createTokenCommand(config, values);
      return;
    }
    case 'password': {
      if (wantsHelp || (rest[0] !== 'set' && rest[0] !== 'reset')) return console.log(HELP.password);
      const { values } = parseArgs({
        args: rest.slice(1),
        options: { email: { type: 'string' }, generate: { type: 'boolean' } },
      });
      const { setPasswordCommand } = await import('./password-command.js');
      await setPasswordCommand(config, { ...values, verb: rest[0] });
      return;
    }
    default:
      console.error(`Unknown command "${command}".\n\n${HELP.main}`);
      process.exitCode = 2;
  }
}

/** `studio migrate-data --from A --to B`: every studio copied from one store to another, and verified there. */
async function migrateDataCommand(rest: string[]) {
  const { values } = parseArgs({ args: rest, options: { from: { type: 'string' }, to: { type: 'string' } } });
  if (!values.from || !values.to) {
    console.error(HELP['migrate-data']);
    process.exitCode = 2;
    return;
  }
  const { migrateData, MigrateDataError } = await import('./migrate-data.js');
  try {
    const report = await migrateData({ from: values.from, to: values.to });
    for (const t of report.tables) console.log(`${t.table.padEnd(24)} ${t.rows} rows`);
    console.log(
      `Copied and verified: ${report.studios} studio(s), every table's row count, ${report.auditEvents} audit events on intact chains.`,
    );
  } catch (err) {
    if (!(err instanceof MigrateDataError)) throw err;
    console.error(`studio migrate-data: ${err.message}`);
    process.exitCode = 2;
  }
}

/** This build's version, from the project's package.json (found from the bundle and from source alike). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** `studio migrate`: the pending migrations of the configured database, applied and named. */
async function migrateDatabase(config: ReturnType<typeof loadConfig>) {
  if (config.databaseUrl) {
    const pg = (await import('pg')).default;
    const { migratePostgres, redactedUrl } = await import('../db/postgres.js');
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 1 });
    try {
      return { applied: await migratePostgres(pool), location: redactedUrl(config.databaseUrl) };
    } finally {
      await pool.end();
    }
  }
  mkdirSync(dirname(config.databasePath), { recursive: true });
  const handle = new Database(config.databasePath);
  try {
    handle.pragma('journal_mode = WAL');
    return { applied: await migrate(handle), location: config.databasePath };
  } finally {
    handle.close();
  }
}

async function createTokenCommand(
  config: ReturnType<typeof loadConfig>,
  opts: { email?: string; name?: string; studio?: string },
) {
  const { openDatabase } = await import('../db/open.js');
  const { mintToken } = await import('./domain/studio/onboarding.js');
  const store = await openDatabase({ path: config.databasePath, url: config.databaseUrl });
  try {
    let q = store.db
      .selectFrom('members')
      .innerJoin('users', 'users.id', 'members.user_id')
      .select(['members.id', 'members.studio_id', 'members.role', 'users.email'])
      .where('members.removed_at', 'is', null);
    q = opts.email ? q.where('users.email', '=', opts.email.toLowerCase()) : q.where('members.role', '=', 'owner');
    if (opts.studio) q = q.where('members.studio_id', '=', opts.studio);
    const members = await q.execute();
    if (members.length !== 1) {
      console.error(
        members.length
          ? 'Several members match; add --studio STUDIO_ID.'
          : 'No member matches; check --email (or run `studio serve` once to create the demo studio).',
      );
      process.exitCode = 2;
      return;
    }
    const m = members[0]!;
    const { token } = await mintToken(store.db, m.id, opts.name ?? 'CLI token', nowIso());
    console.log(token);
    console.error(`Token for ${m.email} (${m.role}). It is shown once; store it safely.`);
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(`studio: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
