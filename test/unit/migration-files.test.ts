import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkMigrationFiles,
  loadMigrations,
  MIGRATIONS_DIR,
  MigrationFolderError,
  pendingMigrations,
} from '../../db/migration-files.js';

/**
 * The runner finds the migrations by listing their folder (no index of imports), so the folder's names are the
 * schema's history: they must run 001, 002, … without a gap or a repeat, and a start refuses a folder that does not.
 */
const refusal = (names: string[]) => {
  try {
    checkMigrationFiles(names, '/m');
  } catch (err) {
    expect(err).toBeInstanceOf(MigrationFolderError);
    return (err as Error).message;
  }
  throw new Error(`${names.join(', ')} was accepted`);
};

describe('the migrations folder', () => {
  it('lists migrations in name order, with version and name from the file name, past helpers, maps and declarations', () => {
    const files = checkMigrationFiles(
      ['002_b.ts', 'random-id-sql.ts', '001_a.ts', '001_a.js.map', '003_c_d.ts', 'README.md', '001_a.d.ts'],
      '/m',
    );
    expect(files).toEqual([
      { version: 1, name: 'a', file: '001_a.ts' },
      { version: 2, name: 'b', file: '002_b.ts' },
      { version: 3, name: 'c_d', file: '003_c_d.ts' },
    ]);
    expect(checkMigrationFiles(['001_a.mjs', '002_b.mjs'], '/m').map((f) => f.version)).toEqual([1, 2]);
  });

  it('refuses a missing number, a repeated one, a folder that does not start at 001 and a misnamed file', () => {
    expect(refusal(['001_a.ts', '002_b.ts', '004_d.ts'])).toContain(
      'The migrations in /m cannot be applied: 003 is missing (002_b.ts is followed by 004_d.ts)',
    );
    expect(refusal(['001_a.ts', '002_b.ts', '002_c.ts'])).toContain('002_b.ts and 002_c.ts have the same number');
    expect(refusal(['002_b.ts', '003_c.ts'])).toContain('001 is missing (the first is 002_b.ts)');
    expect(refusal(['001_a.ts', '02_b.ts'])).toContain('02_b.ts is not named NNN_name');
    expect(refusal(['001_a.ts', '002-b.ts'])).toContain('002-b.ts is not named NNN_name');
    expect(refusal(['001_a.ts', '0002_b.ts'])).toContain('0002_b.ts is not named NNN_name');
    expect(refusal(['001_a.ts', '002_B.ts'])).toContain('002_B.ts is not named NNN_name');
  });

  it('holds 001 to the last without a gap, each exporting its statements and the name its file gives', async () => {
    const migrations = await loadMigrations();
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
    const files = readdirSync(MIGRATIONS_DIR).filter((f) => /^\d/.test(f));
    expect(migrations.map((m) => `${String(m.version).padStart(3, '0')}_${m.name}.ts`)).toEqual(files.sort());
    for (const m of migrations) expect(m.statements.length).toBeGreaterThan(0);
  });

  describe('loading', () => {
    const dirs: string[] = [];
    afterAll(() => {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });
    /** A folder of its own for each case: a module once imported is not read again. */
    const folder = (files: Record<string, string>) => {
      const dir = mkdtempSync(join(tmpdir(), 'studio-migrations-'));
      dirs.push(dir);
      for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
      return dir;
    };
    const first = "export const name = 'first'; export const statements = ['CREATE TABLE a (x TEXT)'];";

    it('loads only the migrations not yet applied, in order, with PostgreSQL twins', async () => {
      const dir = folder({
        '001_first.mjs': first,
        '002_second.mjs': "export const statements = ['CREATE TABLE b (x TEXT)']; export const postgres = ['pg'];",
        'helper.mjs': 'export const nothing = 1;',
      });
      expect(await pendingMigrations(new Set([1]), dir)).toEqual([
        { version: 2, name: 'second', statements: ['CREATE TABLE b (x TEXT)'], postgres: ['pg'] },
      ]);
      expect(await pendingMigrations(new Set([1, 2]), dir)).toEqual([]);
    });

    it('refuses a migration whose exported name disagrees with its file, or that exports no statements', async () => {
      const misnamed = folder({
        '001_first.mjs': first,
        '002_second.mjs': "export const name = 'third'; export const statements = [];",
      });
      await expect(pendingMigrations(new Set([1]), misnamed)).rejects.toThrow(
        /002_second\.mjs exports the name 'third' but its file is named 'second'/,
      );
      const empty = folder({ '001_first.mjs': first, '002_second.mjs': 'export const statement = [];' });
      await expect(pendingMigrations(new Set([1]), empty)).rejects.toThrow(/002_second\.mjs must export `statements`/);
    });
  });
});
