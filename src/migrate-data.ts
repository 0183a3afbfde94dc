import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../db/open.js';
import { migrate } from '../db/sqlite.js';
import { redactedUrl } from '../db/postgres.js';
import { verifyAuditChain } from './core/audit.js';

/**
 * `studio migrate-data --from sqlite:PATH --to postgres://…`: a studio that outgrows its SQLite file moves its whole
 * database to PostgreSQL. The target is migrated to the same schema and must hold no data; every table is copied in
 * one transaction (parents before children, as the foreign keys say), then verified: the same row count in every
 * table, and every studio's audit hash chain recomputed on the target. Anything wrong leaves the target empty.
 */
export interface MigrateDataReport {
  tables: Array<{ table: string; rows: number }>;
  studios: number;
  auditEvents: number;
}

export class MigrateDataError extends Error {}

const BATCH = 500;

/** `sqlite:PATH`, `sqlite://PATH` or a plain path. */
export function sqlitePathOf(from: string): string {
  return resolve(from.replace(/^sqlite:(\/\/)?/i, ''));
}

/** Tables in an order that inserts every row after the rows its foreign keys name (SQLite's own catalogue says). */
function tablesInDependencyOrder(source: Database.Database): string[] {
  const tables = (
    source
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .all() as Array<{ name: string }>
  )
    .map((t) => t.name)
    .filter((t) => t !== 'schema_migrations');
  const parents = new Map(
    tables.map((t) => [
      t,
      new Set(
        (source.prepare(`SELECT "table" AS parent FROM pragma_foreign_key_list(?)`).all(t) as Array<{ parent: string }>)
          .map((r) => r.parent)
          .filter((p) => p !== t),
      ),
    ]),
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (!next.length)
      throw new MigrateDataError('The source tables refer to each other in a cycle; nothing was copied.');
    for (const t of next) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered;
}

export async function migrateData(opts: { from: string; to: string }): Promise<MigrateDataReport> {
  const path = sqlitePathOf(opts.from);
  if (!existsSync(path)) throw new MigrateDataError(`There is no SQLite database at ${path}.`);
  if (!/^postgres(ql)?:\/\//i.test(opts.to)) {
    throw new MigrateDataError('--to must be a PostgreSQL URL like postgres://user:password@host:5432/studio.');
  }
  // The source is brought to the current schema first, so both sides have the same tables and columns.
  const writable = new Database(path);
  try {
    writable.pragma('busy_timeout = 5000');
    await migrate(writable);
  } finally {
    writable.close();
  }
  const source = new Database(path, { readonly: true });
  const target = await openDatabase({ path: '', url: opts.to });
  try {
    const tables = tablesInDependencyOrder(source);
    const occupied = await target.db.selectFrom('studios').select('id').limit(1).execute();
    if (occupied.length) {
      throw new MigrateDataError(
        `${redactedUrl(opts.to)} already holds a studio; migrate-data copies into an empty database only.`,
      );
    }
    const copied: MigrateDataReport['tables'] = [];
    await target.write(async (tx) => {
      for (const table of tables) {
        let rows = 0;
        const select = source.prepare(`SELECT * FROM "${table}" ORDER BY rowid LIMIT ? OFFSET ?`);
        for (;;) {
          const batch = select.all(BATCH, rows) as Array<Record<string, unknown>>;
          if (!batch.length) break;
          // Table names come from the source's catalogue, which the same migrations made; never from input.
          await tx
            .insertInto(table as never)
            .values(batch as never)
            .execute();
          rows += batch.length;
        }
        copied.push({ table, rows });
      }
      for (const { table, rows } of copied) {
        const counted = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(tx);
        if (Number(counted.rows[0]?.n) !== rows) {
          throw new MigrateDataError(`${table}: ${rows} rows read but ${counted.rows[0]?.n} on the target.`);
        }
      }
    });
    const studios = await target.db.selectFrom('studios').select('id').execute();
    let auditEvents = 0;
    for (const s of studios) {
      const chain = await verifyAuditChain(target.db, s.id);
      if (!chain.intact) {
        throw new MigrateDataError(
          `Studio ${s.id}: the audit chain does not verify on the target from event ${chain.brokenAtSeq}; the copy is not trustworthy.`,
        );
      }
      auditEvents += chain.eventsChecked;
    }
    return { tables: copied, studios: studios.length, auditEvents };
  } finally {
    source.close();
    await target.close();
  }
}
