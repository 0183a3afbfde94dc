import type { Config } from '../config.js';
import type { ActionContext } from '../core/context.js';
import type { BlobStore } from '../files/blob-store.js';
import type { Db, Store } from '../../db/store.js';

/** What a job sees of the operation it runs. */
export interface JobContext<I> {
  operationId: string;
  studioId: string;
  projectId: string | null;
  input: I;
  store: Store;
  files: BlobStore;
  config: Config;
  /**
   * Says how far the work is (`completed` of `total` units) and is the place a cancel takes effect: it throws once
   * cancel_operation was asked, so a job calls it between units of work, before its final write.
   */
  progress(completed: number, total?: number): Promise<void>;
  /**
   * The job's one write: its changes and the operation's `succeeded`, committed together in one transaction (with the
   * audit events it queues, acting for the member who started it), after checking the operation is still this
   * worker's. So a crash leaves the whole act or nothing, and nothing is ever applied twice. Returns the result kept.
   */
  commit<R>(write: (ctx: ActionContext) => Promise<R>): Promise<R>;
}

export interface JobDefinition<I = unknown, R = unknown> {
  kind: string;
  /** Runs the job; its result (or the value `commit` returned) is kept as the operation's result. */
  run(ctx: JobContext<I>): Promise<R>;
  /** Attempts before an operation interrupted again and again is failed (OPERATION_INTERRUPTED). Default 3. */
  maxAttempts?: number;
  /**
   * Gives back what accepting the act reserved, when the operation ends without succeeding (failed, interrupted or
   * canceled): runs in the transaction that records the end, so the two never disagree. An import's commit puts the
   * import back from `committing`.
   */
  settle?(tx: Db, end: JobEnd<I>): Promise<void>;
}

/** How an operation ended without succeeding, for `settle`. */
export interface JobEnd<I> {
  studioId: string;
  operationId: string;
  input: I;
  status: 'failed' | 'canceled';
  now: string;
}

const JOBS = new Map<string, JobDefinition>();

/**
 * Defines a kind of job once; the runner finds it by the operation's `kind`. A domain defines its jobs in its own
 * folder, in a module its actions import (directly, or through the domain function that starts the operation), so every
 * process that loads the catalog, as every process that runs workers does, can run every job.
 */
export function defineJob<I, R>(job: JobDefinition<I, R>): JobDefinition<I, R> {
  if (JOBS.has(job.kind)) throw new Error(`Job ${job.kind} is defined twice.`);
  JOBS.set(job.kind, job as JobDefinition);
  return job;
}

export const jobOfKind = (kind: string): JobDefinition | undefined => JOBS.get(kind);

/** The kinds of job defined so far, sorted. */
export const definedJobKinds = (): string[] => [...JOBS.keys()].sort();
