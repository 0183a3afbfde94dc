import { openDatabase } from '../db/open.js';
import type { Config } from './config.js';
import type { Runtime } from './core/invoke.js';
import { DiskBlobStore } from './files/blob-store.js';
import { OperationRunner } from './jobs/runner.js';
import { startSweeper } from './jobs/sweeper.js';
import { processLog } from './process-log.js';

/**
 * Opens the database (migrating it) and wires what `invoke` needs. Its error lines go to stderr (see processLog).
 * `jobsDefined`: a process that imports its catalog after starting (stdio MCP) holds its workers until the catalog,
 * which defines the jobs they run, has loaded; a worker would otherwise fail an operation as having no job.
 */
export async function createRuntime(config: Config, jobsDefined?: Promise<unknown>): Promise<Runtime> {
  const store = await openDatabase({
    path: config.databasePath,
    url: config.databaseUrl,
    synchronous: config.synchronous,
  });
  const files = new DiskBlobStore(config.blobDir);
  await files.sweepIncoming();
  const log = processLog(config);
  // Operations are run by workers in every process that opens the store (the HTTP server, a stdio MCP server), so an
  // operation an agent starts is run even when no HTTP server is up; STUDIO_WORKERS=0 leaves them to other processes.
  // Each domain's jobs are defined by modules its actions import: a process that serves the catalog can run them all.
  const workers =
    config.workers > 0
      ? new OperationRunner(
          { store, files, config, log },
          {
            concurrency: config.workers,
            leaseMs: config.operationLeaseSeconds * 1000,
          },
        )
      : undefined;
  let closed = false;
  if (jobsDefined)
    void jobsDefined.then(
      () => closed || workers?.start(),
      (e) => log('the catalog did not load: no workers in this process', e),
    );
  else workers?.start();
  // The sweep runs beside the workers: a process that leaves operations to others leaves the sweep to them too.
  const sweeper =
    config.workers > 0 && config.sweepHours > 0 ? startSweeper(store, files, config.sweepHours, log) : undefined;
  return {
    store,
    files,
    config,
    inFlight: new Map(),
    log,
    workers: { configured: config.workers, running: () => workers?.running ?? false },
    async close() {
      closed = true;
      await sweeper?.stop();
      await workers?.stop();
      await store.close();
    },
  };
}
