/**
 * `studio sweep` from the command line (issue 29, item 6), on either store: it removes a file nothing names that was
 * written hours ago, leaves one written a moment ago (an upload whose record is on its way), says what it did, and
 * refuses a grace period that is not a whole number of minutes with exit code 2.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/server.js';
import { freshDatabase } from '../helpers/test-database.js';

const run = promisify(execFile);
const studio = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

/** A file at its content address under `blobs`, written `hoursAgo`. */
function original(blobs: string, hoursAgo: number): string {
  const digest = randomBytes(32).toString('hex');
  const dir = join(blobs, 'originals', digest.slice(0, 2));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, digest);
  writeFileSync(path, randomBytes(1000));
  const then = new Date(Date.now() - hoursAgo * 3_600_000);
  utimesSync(path, then, then);
  return path;
}

describe('studio sweep', () => {
  it('removes an old file nothing names, keeps a fresh one, and refuses a bad grace period', async () => {
    const db = await freshDatabase();
    const blobs = mkdtempSync(join(tmpdir(), 'studio-sweep-'));
    const env = { ...db.env, STUDIO_BLOB_DIR: blobs };
    try {
      await studio(['migrate'], env);
      const old = original(blobs, 3);
      const fresh = original(blobs, 0);
      const { stdout } = await studio(['sweep'], env);
      expect(stdout).toMatch(/^Removed 1 file nothing names \(1000 bytes\) from .*; kept 1 file\.\n$/);
      expect(existsSync(old)).toBe(false);
      expect(existsSync(fresh)).toBe(true);
      const refused = await studio(['sweep', '--grace-minutes', 'soon'], env).catch((e: { code: number }) => e);
      expect(refused).toMatchObject({ code: 2 });
      expect(existsSync(fresh)).toBe(true);
    } finally {
      rmSync(blobs, { recursive: true, force: true });
      await db.drop();
    }
  });
});
