import type { CompiledQuery } from 'kysely';
import type { Db, GroupMemo, RowReader, SendLater, WriteOptions } from './store.js';

/**
 * One write group's transaction on the writer connection, as a store drives it. Each method sends its statement at
 * once and returns a promise of its outcome, which the group commit may await later: on PostgreSQL the connection
 * pipelines, so a write's unchecked statements leave with the next write's savepoint and first reads, in one round
 * trip; on SQLite every statement has run by the time the method returns.
 */
export interface GroupTransaction {
  conn: Db;
  /** Raw one-row reads on the same connection (and transaction). */
  row: RowReader;
  /** SQLite's BEGIN IMMEDIATE; PostgreSQL's BEGIN and the writer lock. */
  begin(): Promise<unknown>;
  /** SAVEPOINT w<n>: the n-th write of the group starts; savepoints nest, one inside the one before. */
  savepoint(n: number): Promise<unknown>;
  /** ROLLBACK TO w<n> and RELEASE it: the n-th write, and everything sent after it, undone. */
  rollbackToSavepoint(n: number): Promise<unknown>;
  /** Rejects when the transaction did not commit (PostgreSQL answers a COMMIT of an aborted transaction with ROLLBACK). */
  commit(): Promise<unknown>;
  rollback(): Promise<unknown>;
  /** Sends a statement whose result nobody reads (see SendLater); resolves to the number of rows it affected. */
  send(query: CompiledQuery): Promise<number>;
}

interface Job {
  fn: (tx: GroupTransaction, memo: GroupMemo, later: SendLater) => Promise<unknown>;
  /** fn keeps nothing outside the transaction, so it may run again (see WriteOptions.repeatable). */
  repeatable: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** A job that has run in this group: its savepoint and the statements it sent, checked or not yet. */
interface Ran {
  job: Job;
  savepoint: number;
  sent: Sent[];
  value?: unknown;
  thrown?: { error: unknown };
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
 * back to its savepoint, and leaves nothing; the others land (a repeatable write that had begun on top of it runs
 * again). Nobody gets an answer before the commit that holds their change has returned. This is what lets audited,
 * fully synchronous writes go faster than one fsync each.
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

  run<T>(
    fn: (tx: GroupTransaction, memo: GroupMemo, later: SendLater) => Promise<T>,
    options: WriteOptions = {},
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        fn,
        repeatable: options.repeatable === true,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
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
    // Jobs taken from the queue and not settled: should the whole group fail, they fail with it.
    const taken = new Set<Job>();
    // What the group's writes may keep for each other while it holds the writer lock (no other writer can change it).
    const memo: GroupMemo = new Map();
    /**
     * A job is checked whole (every statement it sent, every `later` check) before it is settled. One that failed is
     * rolled back to its savepoint, which undoes everything sent after it too; what it kept in the memo may describe
     * rows that are gone, so the memo is cleared.
     */
    const check = async (ran: Ran): Promise<boolean> => {
      // The cause is the job's first statement that failed, if one did (a later error may only echo the abort).
      const failure = (await firstFailure(ran.sent)) ?? ran.thrown;
      taken.delete(ran.job);
      // Settled before anything else can throw: if the whole transaction is already lost (SQLite's disk full, a
      // dropped connection), ROLLBACK TO fails too, and the outer catch must still answer this job.
      settled.push(
        failure ? { job: ran.job, ok: false, value: failure.error } : { job: ran.job, ok: true, value: ran.value },
      );
      if (!failure) return true;
      memo.clear();
      await tx.rollbackToSavepoint(ran.savepoint);
      return false;
    };
    try {
      // Awaited, once per group: were BEGIN to fail, the writes' statements would each commit on their own.
      await tx.begin();
      // The last job run, whose statements are not checked yet. The next job starts on top of it at once (its savepoint
      // nested inside), so that on PostgreSQL the unchecked statements leave with the next job's first reads, and one
      // round trip answers both: a write costs one round trip, not two. Should the unchecked job then fail (a lost
      // version race, a failed INSERT), rolling it back undoes the job started on top of it as well, which therefore
      // runs again from the start. Only a repeatable job starts on an unchecked one; another waits for the check.
      let unchecked: Ran | undefined;
      let savepoints = 0;
      while (this.queue.length && settled.length < this.maxGroup) {
        const job = this.queue[0]!;
        if (unchecked && !job.repeatable) {
          await check(unchecked);
          unchecked = undefined;
        }
        this.queue.shift();
        taken.add(job);
        const n = ++savepoints;
        const ran: Ran = { job, savepoint: n, sent: [watch(tx.savepoint(n))] };
        try {
          ran.value = await job.fn(
            tx,
            memo,
            (query, verify) => void ran.sent.push(watch(verify ? tx.send(query).then(verify) : tx.send(query))),
          );
        } catch (error) {
          ran.thrown = { error };
        }
        if (unchecked) {
          const stood = await check(unchecked);
          unchecked = undefined;
          if (!stood) {
            // This job ran on top of a write that is gone (and was rolled back with it): it runs again, first.
            taken.delete(job);
            this.queue.unshift(job);
            continue;
          }
        }
        if (ran.thrown) await check(ran);
        else unchecked = ran;
      }
      if (unchecked) await check(unchecked);
      await tx.commit();
    } catch (err) {
      // BEGIN, a savepoint, a rollback to one, or COMMIT itself failed: nothing in this group is durable, so every
      // member fails.
      await tx.rollback().catch(() => undefined);
      for (const s of settled) s.job.reject(s.ok ? err : s.value);
      for (const job of taken) job.reject(err);
      return;
    }
    for (const s of settled) (s.ok ? s.job.resolve : s.job.reject)(s.value);
  }
}
