/**
 * This process's workers, woken when an operation is queued here so they start at once rather than at their next
 * look (operations queued by another process are found by that look, every half second).
 */
const sleepers = new Set<() => void>();

export function wakeWorkers() {
  for (const wake of [...sleepers]) wake();
}

/** Waits for a wake-up or `ms`, whichever comes first. */
export function sleepUntilWoken(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sleepers.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    sleepers.add(done);
  });
}
