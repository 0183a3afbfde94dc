#!/usr/bin/env node
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, projectRoot } from './config.js';
import { migrate } from '../db/sqlite.js';
import { nowIso } from './core/ids.js';
import { HELP } from './cli-help.js';

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
