import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { migrationFiles } from '../../db/migration-files.js';
import type { Runtime } from '../core/invoke.js';

/** How long readiness waits for the database before saying it does not answer. */
const STORE_TIMEOUT_MS = 2_000;

interface Readiness {
  store: 'ok' | string;
  migrations: { applied: number; available: number; current: boolean };
  workers: { configured: number; running: boolean };
}

/** The versions the database has applied, or why it could not say within the timeout. */
async function appliedVersions(rt: Runtime): Promise<Set<number> | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${STORE_TIMEOUT_MS} ms`), STORE_TIMEOUT_MS);
  });
  const read = sql<{ version: number }>`SELECT version FROM schema_migrations`
    .execute(rt.store.readDb)
    .then((r) => new Set(r.rows.map((row) => Number(row.version))))
    .catch(() => 'the database refused the query');
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What `/health/ready` checks: the store answers, every migration this build has is applied, the workers run. */
export async function readiness(rt: Runtime): Promise<{ ready: boolean; checks: Readiness }> {
  const applied = await appliedVersions(rt);
  const available = migrationFiles().map((f) => f.version);
  const appliedCount = typeof applied === 'string' ? 0 : available.filter((v) => applied.has(v)).length;
  const configured = rt.workers?.configured ?? 0;
  const checks: Readiness = {
    store: typeof applied === 'string' ? applied : 'ok',
    migrations: { applied: appliedCount, available: available.length, current: appliedCount === available.length },
    workers: { configured, running: rt.workers?.running() ?? false },
  };
  const workersOk = configured === 0 || checks.workers.running;
  return { ready: checks.store === 'ok' && checks.migrations.current && workersOk, checks };
}

/**
 * `/health`: the process answers (a liveness probe: restart it when this fails). `/health/ready`: it can serve (a
 * readiness probe: send it traffic when this is 200; 503 with the failed check otherwise). Neither needs a token nor
 * says anything about a studio.
 */
export function registerHealth(app: FastifyInstance, rt: Runtime) {
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/health/ready', async (_req, reply) => {
    const { ready, checks } = await readiness(rt);
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ready' : 'not_ready', ...checks });
  });
}
