import type { CompiledQuery } from 'kysely';
import type { Db, GroupMemo, RowReader, SendLater } from './store.js';

/**
 * One write group's transaction on the writer connection, as a store drives it. Each method sends its statement at
 * once and returns a promise of its outcome, which the group commit may await later: on PostgreSQL the connection
 * pipelines, so a RELEASE and the next SAVEPOINT leave with the next write's first statements, and a write's UPDATE
 * with its audit INSERT; on SQLite every statement has run by the time the method returns.
 */
export interface GroupTransaction {
  conn: Db;
  /** Raw one-row reads on the same connection (and transaction). */
  row: RowReader;
  /** SQLite's BEGIN IMMEDIATE; PostgreSQL's BEGIN and the writer lock. */
  begin(): Promise<unknown>;
  savepoint(): Promise<unknown>;
  release(): Promise<unknown>;
  /** ROLLBACK TO the write's savepoint, and RELEASE it. */
  rollbackToSavepoint(): Promise<unknown>;
  /** Rejects when the transaction did not commit (PostgreSQL answers a COMMIT of an aborted transaction with ROLLBACK). */
  commit(): Promise<unknown>;
  rollback(): Promise<unknown>;
  /** Sends a statement whose result nobody reads (see SendLater); resolves to the number of rows it affected. */
  send(query: CompiledQuery): Promise<number>;
}

interface Job {
  fn: (tx: GroupTransaction, memo: GroupMemo, later: SendLater) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** A statement sent and not yet checked: its outcome, kept so that its failure is never an unhandled rejection. */
type Sent = Promise<{ failed: false } | { failed: true; error: unknown }>;
const watch = (p: Promise<unknown>): Sent =>
  p.then(
    () => ({ failed: false }) as const,
    (error: unknown) => ({ failed: true, error }) as const,
  );

/** The first failure among statements sent in order: the cause (those after it only echo the aborted transaction). */
async function firstFailure(sent: readonly Sent[]): Promise<{ error: unknown } | undefined> {
  for (const s of sent) {
    const outcome = await s;
    if (outcome.failed) return outcome;
  }
  return undefined;
}

/**
 * Group commit: writes that arrive while a transaction is open join it, each inside its own SAVEPOINT, and one COMMIT
 * (one fsync under synchronous=FULL or synchronous_commit=on) makes the whole group durable. A write that fails rolls
 * back to its savepoint alone; nobody gets an answer before the commit that holds their change has returned. This is
 * what lets audited, fully synchronous writes go faster than one fsync each.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private draining = false;
  private scheduled = false;

  /** `withTransaction` lends the writer connection for one group, as a GroupTransaction on it. */
  constructor(
    private readonly withTransaction: (work: (tx: GroupTransaction) => Promise<void>) => Promise<void>,
    private readonly maxGroup = 64,
  ) {}

  run<T>(fn: (tx: GroupTransaction, memo: GroupMemo, later: SendLater) => Promise<T>): Promise<T> {
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
      while (this.queue.length) await this.withTransaction((tx) => this.commitGroup(tx));
    } catch (err) {
      // The connection could not be had at all: every write waiting fails, and the next write tries again.
      for (const job of this.queue.splice(0)) job.reject(err);
    } finally {
      this.draining = false;
    }
  }

  private async commitGroup(tx: GroupTransaction) {
    const settled: Array<{ job: Job; ok: boolean; value: unknown }> = [];
    // What the group's writes may keep for each other while it holds the writer lock (no other writer can change it).
    const memo: GroupMemo = new Map();
    try {
      // Awaited, once per group: were BEGIN to fail, the writes' statements would each commit on their own.
      await tx.begin();
      // A write is checked whole (every statement it sent, every `later` check) before it is settled; only then is its
      // savepoint released, and not at once: the RELEASE leaves with the next write's first statements (COMMIT ends the
      // last one's). So a write costs no round trip of its own for its savepoint.
      let releaseDue = false;
      while (this.queue.length && settled.length < this.maxGroup) {
        const job = this.queue.shift()!;
        const released = releaseDue ? watch(tx.release()) : undefined;
        releaseDue = false;
        const sent: Sent[] = [watch(tx.savepoint())];
        let thrown: { error: unknown } | undefined;
        let value: unknown;
        try {
          value = await job.fn(
            tx,
            memo,
            (query, check) => void sent.push(watch(check ? tx.send(query).then(check) : tx.send(query))),
          );
        } catch (error) {
          thrown = { error };
        }
        // A RELEASE that failed would leave the settled write's savepoint where this write's rollback reaches: nothing
        // in the group can be trusted then, so every member fails (the outer catch).
        const releaseFailure = released && (await firstFailure([released]));
        if (releaseFailure) {
          settled.push({ job, ok: false, value: releaseFailure.error });
          throw releaseFailure.error;
        }
        // The cause is the write's first statement that failed, if one did (a later error may only echo the abort).
        const failure = (await firstFailure(sent)) ?? thrown;
        if (!failure) {
          settled.push({ job, ok: true, value });
          releaseDue = true;
          continue;
        }
        // The job settles as failed before anything else can throw: if the whole transaction is already lost (SQLite's
        // disk full, a dropped connection), ROLLBACK TO fails too, and the outer catch must still answer this job.
        settled.push({ job, ok: false, value: failure.error });
        // What the failed write kept may describe rows its rollback removes.
        memo.clear();
        await tx.rollbackToSavepoint();
      }
      await tx.commit();
    } catch (err) {
      // BEGIN, a savepoint or COMMIT itself failed: nothing in this group is durable, so every member fails.
      await tx.rollback().catch(() => undefined);
      for (const s of settled) s.job.reject(s.ok ? err : s.value);
      return;
    }
    for (const s of settled) (s.ok ? s.job.resolve : s.job.reject)(s.value);
  }
}
