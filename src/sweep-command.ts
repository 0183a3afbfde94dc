import { openDatabase } from '../db/open.js';
import type { Config } from './config.js';
import { SWEEP_GRACE_MS, sweepBlobs } from './domain/storage/sweep.js';
import { DiskBlobStore } from './files/blob-store.js';

/**
 * `studio sweep`: removes the blob store's files no record names any more and older than the grace period (an hour
 * unless `graceMinutes` says otherwise), then staged uploads a crash left; prints what it removed. Safe while the
 * server runs: a file being uploaded is younger than the grace period.
 */
export async function sweepCommand(config: Config, opts: { graceMinutes?: string | undefined }) {
  const graceMs = opts.graceMinutes === undefined ? SWEEP_GRACE_MS : Number(opts.graceMinutes) * 60_000;
  if (!Number.isInteger(graceMs) || graceMs < 0) {
    console.error('studio sweep: --grace-minutes takes a whole number of minutes.');
    process.exitCode = 2;
    return;
  }
  const store = await openDatabase({ path: config.databasePath, url: config.databaseUrl });
  const files = new DiskBlobStore(config.blobDir);
  try {
    const report = await sweepBlobs(store, files, { graceMs });
    await files.sweepIncoming(graceMs);
    console.log(
      `Removed ${report.removed} files nothing names (${report.bytes} bytes) from ${config.blobDir}; kept ${report.kept}.`,
    );
  } finally {
    await store.close();
  }
}
