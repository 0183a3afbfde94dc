import { fork } from 'node:child_process';
import type { Config } from '../config.js';
import type { Runtime } from '../core/invoke.js';
import { saveDemoDecisionShare, saveDemoShare, saveOwnerToken } from '../local-owner.js';
import { createRuntime } from '../runtime.js';
import { seedDemo } from './demo.js';
import { seedDemoDecisionLink } from './demo-decision.js';
import { seedDemoEstimate } from './demo-estimate.js';
import { seedDemoShowcase } from './demo-showcase.js';

/** What the first start prints once: the demo owner's token and password (neither is read back later). */
export interface FirstStart {
  token: string;
  password: string;
}

/** The internal CLI command that seeds the demo in a process of its own (`studio seed-demo`, run by `serve`). */
export const SEED_COMMAND = 'seed-demo';

/**
 * The demo studio, made on an empty database: the bare studio, then its photographs, client document, estimate and
 * decide link through the real actions; the token and the two share paths are kept next to the database.
 * Null when the database already holds a studio.
 */
export async function seedFirstStart(rt: Runtime): Promise<FirstStart | null> {
  const seeded = await seedDemo(rt.store);
  if (!seeded) return null;
  const { databasePath } = rt.config;
  saveOwnerToken(databasePath, seeded.token);
  saveDemoShare(databasePath, await seedDemoShowcase(rt, seeded.token, seeded.projectId));
  await seedDemoEstimate(rt, seeded.token, seeded.projectId);
  saveDemoDecisionShare(databasePath, await seedDemoDecisionLink(rt, seeded.token, seeded.projectId));
  return { token: seeded.token, password: seeded.password };
}

/**
 * Seeds the demo in a short-lived child process running `script` (the CLI) with SEED_COMMAND, when the database holds
 * no studio yet. Why a process: the demo's photographs and documents load libvips, librsvg and fontconfig and leave
 * about 75 MB of native memory behind (a forced GC and libvips' cache settings free none of it), which a serving
 * process would otherwise carry for its whole life. A worker thread would not do: native memory is per process.
 */
export async function seedFirstStartInChild(rt: Runtime, script: string): Promise<FirstStart | null> {
  if (await rt.store.readRow('SELECT id FROM studios LIMIT 1')) return null;
  // The same environment names the same database and files; its log lines go to this process's stderr.
  const child = fork(script, [SEED_COMMAND], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let answer: FirstStart | null = null;
  child.on('message', (m) => (answer = m as FirstStart | null));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`seeding the demo studio failed (exit code ${code}); see the lines above`);
  return answer;
}

/** SEED_COMMAND's side: seeds on a runtime of its own that runs no workers, tells the parent, and closes. */
export async function seedFirstStartHere(config: Config): Promise<void> {
  const rt = await createRuntime({ ...config, workers: 0 });
  try {
    const answer = await seedFirstStart(rt);
    await new Promise<void>((resolve, reject) =>
      process.send ? process.send(answer, (e: Error | null) => (e ? reject(e) : resolve())) : resolve(),
    );
  } finally {
    await rt.close();
    // The IPC channel would keep this process alive.
    process.disconnect?.();
  }
}
