/**
 * Preloaded into a server by bench/profile.ts (`node --import bench/lib/profiler-preload.mjs dist/studio.mjs serve`):
 * a CPU profile of exactly the measured window, through node:inspector's Session and Profiler, so fixtures and
 * warm-up stay out of it. Each SIGUSR2 toggles: the first starts the profiler, the second stops it and writes the
 * profile to BENCH_PROFILE_FILE (then `<file>.done`, which the bench waits for).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.BENCH_PROFILE_FILE;
if (file) {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () =>
        session.post('Profiler.setSamplingInterval', { interval: 100 }, () => session.post('Profiler.start')),
      );
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, result) => {
      writeFileSync(file, JSON.stringify(err ? { error: String(err) } : result.profile));
      writeFileSync(`${file}.done`, '');
    });
  });
}
