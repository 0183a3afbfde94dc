/**
 * Preloaded into a server by bench/queries.ts (`node --import tsx --import bench/lib/count-queries.ts ...`): counts
 * every better-sqlite3 statement execution and prepare by SQL text, and on PostgreSQL (BENCH_PG_PORT) the statements
 * and round trips on the wire (count-pg-wire.ts), without touching src/. On SIGUSR2 it writes the running totals to
 * BENCH_QUERY_LOG, so a client can take deltas around a batch of requests.
 */
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { wireCounts } from './count-pg-wire.js';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as typeof import('better-sqlite3');

const executions = new Map<string, number>();
const prepares = new Map<string, number>();
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

const probe = new Database(':memory:');
const StatementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
probe.close();
for (const method of ['run', 'get', 'all', 'iterate'] as const) {
  const original = StatementProto[method]!;
  StatementProto[method] = function (this: { source: string }, ...args: unknown[]) {
    bump(executions, this.source);
    return original.apply(this, args);
  };
}
const DbProto = Database.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
const prepare = DbProto.prepare!;
DbProto.prepare = function (this: unknown, source: unknown, ...rest: unknown[]) {
  bump(prepares, String(source));
  return prepare.call(this, source, ...rest);
};
const exec = DbProto.exec!;
DbProto.exec = function (this: unknown, source: unknown) {
  bump(executions, String(source));
  return exec.call(this, source);
};

const file = process.env.BENCH_QUERY_LOG;
if (file) {
  process.on('SIGUSR2', () => {
    writeFileSync(
      file,
      JSON.stringify({
        executions: Object.fromEntries(executions),
        prepares: Object.fromEntries(prepares),
        postgres: wireCounts(),
      }),
    );
  });
}
