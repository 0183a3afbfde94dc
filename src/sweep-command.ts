import { parseArgs } from 'node:util';
import { openDatabase } from '../db/open.js';
import type { Config } from './config.js';
import { SWEEP_GRACE_MS, sweepBlobs } from './domain/storage/sweep.js';
import { DiskBlobStore } from './files/blob-store.js';

/**
 * `studio sweep [--grace-minutes N]`: removes the blob store's files no record names any more and older than the grace
 * period (an hour unless N minutes), then staged uploads a crash left; prints what it removed. Safe while the server
 * runs: a file being uploaded is younger than the grace period.
 */
export async function sweepCommand(config: Config, args: string[]) {
  const { values } = parseArgs({ args, options: { 'grace-minutes': { type: 'string' } } });
  const minutes = values['grace-minutes'];
  const graceMs = minutes === undefined ? SWEEP_GRACE_MS : Number(minutes) * 60_000;
  if ((minutes !== undefined && !/^\d+$/.test(minutes)) || !Number.isSafeInteger(graceMs)) {
    console.error('studio sweep: --grace-minutes takes a whole number of minutes.');
    process.exitCode = 2;
    return;
  }
  const store = await openDatabase({ path: config.databasePath, url: config.databaseUrl });
  const files = new DiskBlobStore(config.blobDir);
  try {
    const report = await sweepBlobs(store, files, { graceMs });
    await files.sweepIncoming(graceMs);
    const count = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
    console.log(
      `Removed ${count(report.removed)} nothing names (${report.bytes} bytes) from ${config.blobDir}; kept ${count(report.kept)}.`,
    );
  } finally {
    await store.close();
  }
}
