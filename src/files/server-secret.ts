import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Config } from '../config.js';

/** Where the generated key lives: beside the database (the data folder), like the owner's token. */
export const secretFilePath = (databasePath: string) => join(dirname(databasePath), 'link-secret');

const loaded = new Map<string, Promise<Buffer>>();

/**
 * The server's key for signing download links: STUDIO_SECRET when set (needed when several machines serve one
 * studio), else 32 random bytes kept in `link-secret` in the data folder (mode 0600), made on first use. Two processes
 * making it at once agree: the file is created exclusively, and the one that loses the race reads the winner's.
 * Deleting the file (or changing STUDIO_SECRET) invalidates every link minted so far, which is a way to revoke them.
 */
export function linkSecret(config: Pick<Config, 'secret' | 'databasePath'>): Promise<Buffer> {
  if (config.secret) return Promise.resolve(Buffer.from(config.secret, 'utf8'));
  const path = secretFilePath(config.databasePath);
  let secret = loaded.get(path);
  if (!secret) {
    secret = readOrMake(path);
    loaded.set(path, secret);
    secret.catch(() => loaded.delete(path));
  }
  return secret;
}

async function readOrMake(path: string): Promise<Buffer> {
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing?.trim()) return Buffer.from(existing.trim(), 'hex');
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return Buffer.from((await readFile(path, 'utf8')).trim(), 'hex');
}
