/**
 * What the blob store holds on disk, read from outside the server as a person would with `du`: the kept originals
 * (by digest, with their bytes), and every file with its age, so a test can age them as if written hours ago.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from './in-process.js';

/** The hex SHA-256 of some bytes: the name the blob store keeps them under, worked out independently of the server. */
export const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** Every file under `dir`, recursively; none when it does not exist. */
function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const path = join(dir, n);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The originals kept: each digest's size, and their total bytes. */
export function keptOriginals(app: TestApp): { bytes: number; sizes: Map<string, number> } {
  const sizes = new Map<string, number>();
  for (const path of filesUnder(join(app.rt.config.blobDir, 'originals'))) {
    sizes.set(path.slice(path.lastIndexOf('/') + 1), statSync(path).size);
  }
  return { bytes: [...sizes.values()].reduce((a, b) => a + b, 0), sizes };
}

/** The derived files kept, by name. */
export const keptDerived = (app: TestApp) =>
  new Set(filesUnder(join(app.rt.config.blobDir, 'derived')).map((p) => p.slice(p.lastIndexOf('/') + 1)));

/** Sets every kept file's time to `hours` ago, as if the store had been written then. */
export function ageBlobStore(app: TestApp, hours: number) {
  const then = new Date(Date.now() - hours * 3_600_000);
  for (const path of filesUnder(app.rt.config.blobDir)) utimesSync(path, then, then);
}
