import type { Store } from '../../../db/store.js';
import type { BlobStore, KeptFile } from '../../files/blob-store.js';
import { keptEverywhere, renderingKey } from './references.js';

/**
 * How long a kept file nothing names is left alone: an upload keeps its file before the transaction that records it
 * (prepare, then write), and a package holds its entries before its commit, so a file younger than this may be about
 * to be named. An hour is far longer than any of those take.
 */
export const SWEEP_GRACE_MS = 60 * 60_000;

export interface SweepReport {
  /** Files removed, and their bytes. */
  removed: number;
  bytes: number;
  /** Files left: named by a record, or too young to judge. */
  kept: number;
}

/** Whether a kept file is named: an original by its digest; a derived file by the rendering its name starts with. */
function named(file: KeptFile, kept: Awaited<ReturnType<typeof keptEverywhere>>): boolean {
  if (file.kind === 'original') return kept.originals.has(file.name);
  const m = /^([0-9a-f]{64})-r(\d+)-[a-z]+\.jpg$/.exec(file.name);
  return m !== null && kept.renderings.has(renderingKey(m[1]!, Number(m[2])));
}

/**
 * Removes every kept file no record names (see references.ts) and last written before the grace period: staged
 * uploads refused after their checks, canceled imports' files, renders never recorded, a rotated photograph's earlier
 * sizes, and crash debris. What is named is read first, in one snapshot, and only then are the files listed, so a
 * record committed after that read names a file kept or held after the cutoff, which `removeStale` leaves. Safe to
 * run in several processes at once.
 */
export async function sweepBlobs(
  store: Store,
  files: BlobStore,
  opts: { graceMs?: number; now?: number } = {},
): Promise<SweepReport> {
  const cutoff = (opts.now ?? Date.now()) - (opts.graceMs ?? SWEEP_GRACE_MS);
  const kept = await store.readSnapshot((db) => keptEverywhere(db));
  const report: SweepReport = { removed: 0, bytes: 0, kept: 0 };
  for await (const file of files.listKept()) {
    const size = named(file, kept) ? undefined : await files.removeStale(file, cutoff);
    if (size === undefined) report.kept++;
    else {
      report.removed++;
      report.bytes += size;
    }
  }
  return report;
}
