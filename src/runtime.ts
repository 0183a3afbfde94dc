import { openDatabase } from '../db/open.js';
import type { Config } from './config.js';
import type { Runtime } from './core/invoke.js';
import { SnapshotCache } from './core/result-cache.js';
import { DiskBlobStore } from './files/blob-store.js';

/** Opens the database (migrating it) and wires what `invoke` needs. Logs go to stderr: stdout may be MCP's channel. */
export async function createRuntime(config: Config): Promise<Runtime> {
  const store = await openDatabase({
    path: config.databasePath,
    url: config.databaseUrl,
    synchronous: config.synchronous,
  });
  const files = new DiskBlobStore(config.blobDir);
  await files.sweepIncoming();
  return {
    store,
    files,
    config,
    inFlight: new Map(),
    snapshots: new SnapshotCache(),
    log: (msg, err) => {
      if (config.logLevel === 'silent') return;
      process.stderr.write(
        `[studio] ${msg}${err ? `: ${err instanceof Error ? (err.stack ?? err.message) : JSON.stringify(err)}` : ''}\n`,
      );
    },
  };
}
