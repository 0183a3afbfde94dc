import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { OperationRow } from './record.js';
import type { RowReader, Store } from '../../db/store.js';
import type { Config } from '../config.js';
import { actorOf, appendQueuedEvents } from '../core/audit.js';
import { canonicalJson } from '../core/canonical-json.js';
import type { ActionContext, AuditInput, Caller } from '../core/context.js';
import { problemBody, ServiceError, toServiceError } from '../core/errors.js';
import { nowIso } from '../core/ids.js';
import { ROLE_PERMISSIONS, type Role } from '../core/permissions.js';
import type { BlobStore } from '../files/blob-store.js';
import { jobOfKind, type JobContext } from './job.js';
import { settleOperation } from './operations.js';
import { sleepUntilWoken, wakeWorkers } from './wake.js';

/** Thrown where a cancel takes effect: the job stops and commits nothing. */
class Canceled extends Error {}
/** Thrown when the operation is no longer this worker's (its lease ran out and another took it up). */
class Fenced extends Error {}

export interface RunnerOptions {
  /** How long a claim holds without renewal; renewed every third of it while the job runs. */
  leaseMs?: number;
  /** How often an idle worker looks for operations queued by other processes. */
  idleMs?: number;
  /** Operations run at once in this process. */
  concurrency?: number;
}

/**
 * The in-process workers: each loop claims the oldest waiting operation (or one whose worker's lease ran out, a
 * crashed process's), runs its job, and records how it ended. Claims are one statement (on PostgreSQL with
 * `FOR UPDATE SKIP LOCKED`), so several processes sharing a database share the queue and no operation is claimed
 * twice; a job's effects commit with its `succeeded` only while its claim still holds.
 */
export class OperationRunner {
  readonly workerId = `w-${randomBytes(6).toString('hex')}`;
  private stopped = false;
  private loops: Promise<void>[] = [];
  private readonly leaseMs: number;
  private readonly idleMs: number;
  private readonly concurrency: number;

  constructor(
    private readonly rt: { store: Store; files: BlobStore; config: Config; log?: (m: string, e?: unknown) => void },
    opts: RunnerOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.idleMs = opts.idleMs ?? 500;
    this.concurrency = opts.concurrency ?? 1;
  }

  start() {
    for (let i = 0; i < this.concurrency; i++) this.loops.push(this.loop());
    return this;
  }

  /** Started and not stopped: its loops survive a failed claim or job (they log it and go on), so this is the truth. */
  get running(): boolean {
    return !this.stopped && this.loops.length > 0;
  }

  async stop() {
    this.stopped = true;
    wakeWorkers();
    await Promise.all(this.loops);
  }

  private async loop() {
    while (!this.stopped) {
      try {
        const row = await this.claim();
        if (row) await this.run(row);
        else await sleepUntilWoken(this.idleMs);
      } catch (err) {
        if (this.stopped) return;
        this.rt.log?.('operation worker failed; retrying', err);
        await sleepUntilWoken(this.idleMs);
      }
    }
  }

  /** Claims one operation, or answers undefined after one cheap read when there is none. */
  async claim(): Promise<OperationRow | undefined> {
    const now = nowIso();
    const waiting = await this.rt.store.readRow<{ id: string }>(
      `SELECT id FROM operations WHERE status = 'queued' OR (status = 'running' AND lease_until < ?) LIMIT 1`,
      now,
    );
    if (!waiting || this.stopped) return undefined;
    const lease = new Date(Date.now() + this.leaseMs).toISOString();
    const skipLocked = this.rt.store.dialect === 'postgres' ? sql` FOR UPDATE SKIP LOCKED` : sql``;
    return this.rt.store.write(async (tx) => {
      const claimed = await sql<OperationRow>`
        UPDATE operations
        SET status = 'running', claimed_by = ${this.workerId}, lease_until = ${lease}, attempts = attempts + 1,
            started_at = COALESCE(started_at, ${now}), updated_at = ${now}
        WHERE id = (
          SELECT id FROM operations
          WHERE status = 'queued' OR (status = 'running' AND lease_until < ${now})
          ORDER BY created_at, id LIMIT 1${skipLocked}
        )
        RETURNING *`.execute(tx);
      return claimed.rows[0];
    });
  }

  /** Runs a claimed operation's job and records how it ended. */
  async run(row: OperationRow): Promise<void> {
    const job = jobOfKind(row.kind);
    if (!job) return this.fail(row, new ServiceError('INTERNAL'), `no job is defined for kind ${row.kind}`);
    if (row.attempts > (job.maxAttempts ?? 3)) return this.fail(row, new ServiceError('OPERATION_INTERRUPTED'));
    const heartbeat = setInterval(() => void this.renew(row.id).catch(() => {}), this.leaseMs / 3);
    let committed: { result: unknown } | undefined;
    try {
      const caller = await this.callerOf(row);
      const ctx: JobContext<unknown> = {
        operationId: row.id,
        studioId: row.studio_id,
        projectId: row.project_id,
        input: JSON.parse(row.input),
        store: this.rt.store,
        files: this.rt.files,
        config: this.rt.config,
        progress: (completed, total) => this.progress(row.id, completed, total),
        commit: async (write) => {
          const result = await this.commit(row, caller, write);
          committed = { result };
          return result;
        },
      };
      const result = await job.run(ctx);
      if (!committed) await this.commit(row, caller, async () => result);
    } catch (err) {
      if (err instanceof Fenced) return;
      if (err instanceof Canceled) return this.finish(row, { status: 'canceled' });
      const se = toServiceError(err);
      await this.fail(row, se, se.code === 'INTERNAL' ? err : undefined);
    } finally {
      clearInterval(heartbeat);
      this.progressWritten.delete(row.id);
    }
  }

  /** The member who started it, as they are now: a member removed since cannot have it done for them. */
  private async callerOf(row: OperationRow): Promise<Caller> {
    const m = await this.rt.store.readRow<{ user_id: string; role: Role; removed_at: string | null }>(
      'SELECT user_id, role, removed_at FROM members WHERE id = ? AND studio_id = ?',
      row.requested_by,
      row.studio_id,
    );
    if (!m || m.removed_at)
      throw new ServiceError('FORBIDDEN', 'The member who started this operation has left the studio.');
    return {
      userId: m.user_id,
      memberId: row.requested_by,
      studioId: row.studio_id,
      role: m.role,
      tokenId: `operation:${row.id}`,
      via: row.requested_via ?? 'api_token',
      permissions: new Set(ROLE_PERMISSIONS[m.role]),
    };
  }

  /** The job's write and the operation's `succeeded`, in one transaction, only while the claim is this worker's. */
  private async commit<R>(row: OperationRow, caller: Caller, write: (ctx: ActionContext) => Promise<R>): Promise<R> {
    const after: Array<() => void> = [];
    const result = await this.rt.store.write(async (tx, queryRow, memo) => {
      await this.assertClaimed(queryRow, row.id);
      const now = nowIso();
      const events: AuditInput[] = [];
      const project = row.project_id
        ? await tx.selectFrom('projects').selectAll().where('id', '=', row.project_id).executeTakeFirst()
        : undefined;
      const ctx: ActionContext = {
        db: tx,
        queryRow,
        config: this.rt.config,
        caller,
        studioId: row.studio_id,
        project: project as ActionContext['project'],
        now,
        requestId: row.id,
        audit: (e) => void events.push(e),
        afterCommit: (fn) => void after.push(fn),
        unchanged: () => {},
      };
      const result = await write(ctx);
      await appendQueuedEvents(
        { db: tx, memo },
        { studioId: row.studio_id, actor: actorOf(caller), action: row.action, at: now, events },
      );
      await tx
        .updateTable('operations')
        .set({
          status: 'succeeded',
          result: canonicalJson(result ?? {}),
          progress_completed: sql`CASE WHEN progress_total > progress_completed THEN progress_total ELSE progress_completed END`,
          finished_at: now,
          updated_at: now,
          lease_until: null,
        })
        .where('id', '=', row.id)
        .execute();
      return result;
    });
    for (const fn of after) fn();
    return result;
  }

  private async assertClaimed(queryRow: RowReader, id: string) {
    const now = await queryRow<{ status: string; claimed_by: string | null; cancel_requested: number }>(
      'SELECT status, claimed_by, cancel_requested FROM operations WHERE id = ?',
      id,
    );
    if (now?.status !== 'running' || now.claimed_by !== this.workerId) throw new Fenced();
    if (Number(now.cancel_requested) === 1) throw new Canceled();
  }

  /** When each running operation's progress was last written. */
  private readonly progressWritten = new Map<string, number>();

  private async progress(id: string, completed: number, total?: number) {
    // At most one write a quarter second (a 10,000-row job reports every row); a cancel takes effect at the next one.
    const last = this.progressWritten.get(id) ?? 0;
    if (Date.now() - last < 250 && completed !== total) return;
    this.progressWritten.set(id, Date.now());
    const now = nowIso();
    await this.rt.store.write(async (tx, queryRow) => {
      // Throws Canceled (rolling this write back) once a cancel was asked, Fenced once the claim is another's.
      await this.assertClaimed(queryRow, id);
      await tx
        .updateTable('operations')
        .set({
          progress_completed: completed,
          ...(total !== undefined ? { progress_total: total } : {}),
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
    });
  }

  private async renew(id: string) {
    const lease = new Date(Date.now() + this.leaseMs).toISOString();
    await this.rt.store.write((tx) =>
      tx
        .updateTable('operations')
        .set({ lease_until: lease })
        .where('id', '=', id)
        .where('claimed_by', '=', this.workerId)
        .where('status', '=', 'running')
        .execute(),
    );
  }

  private async finish(row: OperationRow, end: { status: 'failed' | 'canceled'; problem?: string }) {
    const now = nowIso();
    await this.rt.store.write(async (tx) => {
      const ended = await tx
        .updateTable('operations')
        .set({ status: end.status, problem: end.problem ?? null, finished_at: now, updated_at: now, lease_until: null })
        .where('id', '=', row.id)
        .where('claimed_by', '=', this.workerId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(ended.numUpdatedRows) === 1) await settleOperation(tx, row, end.status, now);
    });
  }

  private async fail(row: OperationRow, se: ServiceError, cause?: unknown) {
    if (cause !== undefined) this.rt.log?.(`operation ${row.id} (${row.kind}) failed`, cause);
    const { requestId: _r, ...problem } = problemBody(se, row.id);
    await this.finish(row, { status: 'failed', problem: canonicalJson(problem) });
  }
}
