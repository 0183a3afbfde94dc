import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Dialect } from './store.js';

/** The runner's own ledger, one row per migration applied (made by each store before its first migration). */
export interface SchemaMigrationRow {
  version: number;
  name: string;
  applied_at: string;
}
declare module './schema.js' {
  interface Database {
    schema_migrations: SchemaMigrationRow;
  }
}

/**
 * One numbered migration: portable statements, or, where the dialects differ, SQLite's in `statements` and
 * PostgreSQL's in `postgres`. Its version and name come from its file's name, `NNN_name.ts`.
 */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
  postgres?: readonly string[];
}

export const statementsFor = (m: Migration, dialect: Dialect) =>
  dialect === 'postgres' ? (m.postgres ?? m.statements) : m.statements;

/** A migration found in the folder, not yet loaded. */
export interface MigrationFile {
  version: number;
  name: string;
  /** The file's name in the folder: `006_clients.ts` (from source), `006_clients.mjs` (beside the bundle). */
  file: string;
}

/** A migrations folder that breaks the rules below: the store refuses to start on it. */
export class MigrationFolderError extends Error {
  override name = 'MigrationFolderError';
}

/**
 * The folder the runner reads: `db/migrations/` when running from source (tests, tsx), `dist/migrations/` beside the
 * bundle (`dist/studio.mjs`, where scripts/bundle.mjs compiles each migration to its own file), and
 * `dist/db/migrations/` under tsc's output. The same relative path from this module in all three.
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Modules, not maps or declarations; among them, those whose name starts with a digit are migrations. */
const MODULE = /^(?!.*\.d\.ts$).*\.(ts|js|mjs)$/;
const NAMED = /^(\d{3})_([a-z][a-z0-9_]*)\.(ts|js|mjs)$/;

/**
 * The migrations a folder holds, in name order (which is number order: three digits each), the way kysely's
 * FileMigrationProvider finds them. Append only: a landed migration's SQLite statements are never changed in meaning
 * (004, 006 and 009 gained PostgreSQL twins; their SQLite statements are equivalent to before). A module whose name
 * does not start with a digit (random-id-sql.ts) is a helper the migrations import.
 *
 * Refused, so a server never runs a schema with a hole in it: a name that starts with a digit but is not `NNN_name`,
 * two files with one number, and numbers that do not run 001, 002, … without a gap.
 */
export function checkMigrationFiles(names: readonly string[], dir = MIGRATIONS_DIR): MigrationFile[] {
  const refuse = (why: string) =>
    new MigrationFolderError(
      `The migrations in ${dir} cannot be applied: ${why}. Migrations are files named NNN_name.ts (.mjs beside the ` +
        'bundle), numbered 001, 002, … without gaps or repeats; a landed one is never renamed or removed.',
    );
  const files: MigrationFile[] = [];
  for (const file of [...names].filter((n) => MODULE.test(n) && /^\d/.test(n)).sort()) {
    const m = NAMED.exec(file);
    if (!m)
      throw refuse(`${file} is not named NNN_name (three digits, an underscore, lower-case letters, digits and _)`);
    files.push({ version: Number(m[1]), name: m[2]!, file });
  }
  for (const [i, f] of files.entries()) {
    const before = files[i - 1];
    if (before?.version === f.version) throw refuse(`${before.file} and ${f.file} have the same number`);
    const expected = i + 1;
    if (f.version !== expected) {
      const missing = String(expected).padStart(3, '0');
      throw refuse(
        before
          ? `${missing} is missing (${before.file} is followed by ${f.file})`
          : `${missing} is missing (the first is ${f.file})`,
      );
    }
  }
  return files;
}

/** The migrations in `dir`, checked (see checkMigrationFiles). */
export const migrationFiles = (dir = MIGRATIONS_DIR) => checkMigrationFiles(readdirSync(dir), dir);

/** Loads one migration's module; its statements, and its `name` when it still exports one, are checked. */
export async function loadMigration(f: MigrationFile, dir = MIGRATIONS_DIR): Promise<Migration> {
  const mod = (await import(pathToFileURL(join(dir, f.file)).href)) as Partial<Migration>;
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  if (!strings(mod.statements) || (mod.postgres !== undefined && !strings(mod.postgres))) {
    throw new MigrationFolderError(
      `${join(dir, f.file)} must export \`statements\` (and may export \`postgres\`) as arrays of SQL text.`,
    );
  }
  if (mod.name !== undefined && mod.name !== f.name) {
    throw new MigrationFolderError(
      `${join(dir, f.file)} exports the name '${mod.name}' but its file is named '${f.name}'.`,
    );
  }
  return { version: f.version, name: f.name, statements: mod.statements!, postgres: mod.postgres };
}

/**
 * The migrations not yet applied, loaded in order. Every start lists and checks the whole folder, but loads only what
 * it will run: a database that is up to date loads no migration module at all.
 */
export async function pendingMigrations(applied: ReadonlySet<number>, dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const pending = migrationFiles(dir).filter((f) => !applied.has(f.version));
  return Promise.all(pending.map((f) => loadMigration(f, dir)));
}

/** Every migration up to `through` (default: all), loaded: for tests that build a database as it was. */
export async function loadMigrations(through = Number.POSITIVE_INFINITY, dir = MIGRATIONS_DIR): Promise<Migration[]> {
  return Promise.all(
    migrationFiles(dir)
      .filter((f) => f.version <= through)
      .map((f) => loadMigration(f, dir)),
  );
}
