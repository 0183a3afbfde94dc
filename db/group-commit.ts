import { sql } from 'kysely';
import type { Db, GroupMemo } from './store.js';

interface Job {
  fn: (tx: Db, memo: GroupMemo) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: writes that arrive while a transaction is open join it, each inside its own SAVEPOINT, and one COMMIT
 * (one fsync under synchronous=FULL) makes the whole group durable. A write that fails rolls back to its savepoint
 * alone; nobody gets an answer before the commit that holds their change has returned. This is what lets audited,
 * fully synchronous writes go faster than one fsync each.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private draining = false;
  private scheduled = false;

  /** `begin` opens the group's transaction: SQLite's BEGIN IMMEDIATE, or PostgreSQL's BEGIN and the writer lock. */
  constructor(
    private readonly db: Db,
    private readonly begin: (conn: Db) => Promise<void>,
    private readonly maxGroup = 64,
  ) {}

  run<T>(fn: (tx: Db, memo: GroupMemo) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      // Start on the next turn of the event loop, not now: the statements of a write resolve as microtasks, so a group
      // started at once would hold only this write. By setImmediate, every request already read from the sockets in
      // this turn has queued its write too, and they share one commit.
      if (!this.draining && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          void this.drain();
        });
      }
    });
  }

  private async drain() {
    this.draining = true;
    try {
      while (this.queue.length) await this.db.connection().execute((conn) => this.commitGroup(conn));
    } finally {
      this.draining = false;
    }
  }

  private async commitGroup(conn: Db) {
    const settled: Array<{ job: Job; ok: boolean; value: unknown }> = [];
    // What the group's writes may keep for each other while it holds the writer lock (no other writer can change it).
    const memo: GroupMemo = new Map();
    try {
      await this.begin(conn);
      while (this.queue.length && settled.length < this.maxGroup) {
        const job = this.queue.shift()!;
        await sql`SAVEPOINT write_job`.execute(conn);
        try {
          const value = await job.fn(conn, memo);
          await sql`RELEASE write_job`.execute(conn);
          settled.push({ job, ok: true, value });
        } catch (err) {
          // The job settles as failed before anything else can throw: if SQLite already rolled the whole transaction
          // back (disk full, I/O error), ROLLBACK TO fails too, and the outer catch must still answer this job.
          settled.push({ job, ok: false, value: err });
          // What the failed write kept may describe rows its rollback removes.
          memo.clear();
          await sql`ROLLBACK TO write_job`.execute(conn);
          await sql`RELEASE write_job`.execute(conn);
        }
      }
      await sql`COMMIT`.execute(conn);
    } catch (err) {
      // BEGIN, a savepoint or COMMIT itself failed: nothing in this group is durable, so every member fails.
      await sql`ROLLBACK`.execute(conn).catch(() => undefined);
      for (const s of settled) s.job.reject(s.ok ? err : s.value);
      return;
    }
    for (const s of settled) (s.ok ? s.job.resolve : s.job.reject)(s.value);
  }
}
