import type { Store } from '../../db/store.js';
import { sweepBlobs } from '../domain/storage/sweep.js';
import type { DiskBlobStore } from '../files/blob-store.js';

/**
 * The blob sweep, every `hours` in a process that runs workers: files nothing names any more are removed (see
 * sweepBlobs), then staged uploads a crash left behind. The timer never keeps the process alive, and a sweep never
 * overlaps the one before it; a failed sweep is logged and tried again next time.
 */
export function startSweeper(
  store: Store,
  files: DiskBlobStore,
  hours: number,
  log: (msg: string, err?: unknown) => void,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= (async () => {
      try {
        const report = await sweepBlobs(store, files);
        await files.sweepIncoming();
        if (report.removed) log(`sweep removed ${report.removed} unreferenced files (${report.bytes} bytes)`);
      } catch (err) {
        log('sweep failed', err);
      } finally {
        running = undefined;
      }
    })();
  };
  const timer = setInterval(tick, hours * 3_600_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
