import { z } from 'zod';
import { ACTOR_CHANNELS, OPERATION_STATUSES } from '../../db/vocabulary.js';
import { Id, named, Timestamp } from '../core/values.js';
import { defineRecord, field, type TableOf } from '../domain/kit/record.js';

export const OperationStatus = z
  .enum(OPERATION_STATUSES)
  .describe('queued, then running, then succeeded (see result), failed (see problem) or canceled.');
named(OperationStatus, 'OperationStatus');

/** A failed operation's problem, as kept: the error body every surface shares, without a request id. */
const StoredProblem = z
  .strictObject({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    code: z.string().describe('A stable error code (docs/errors.md); stop polling and act on it.'),
    detail: z.string(),
    errors: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
  })
  .catchall(z.unknown());

const ended = (status: string) => status === 'succeeded' || status === 'failed' || status === 'canceled';

/**
 * A JSON column answered only while the operation is in one status (its result once succeeded, its problem once
 * failed), else left out of the answer.
 */
const jsonWhen = <T, C extends string>(column: C, status: string) => ({
  // Nothing yet (undefined, or null as a create leaves it) is NULL, never the JSON text null.
  toColumns: (value: T | undefined | null) =>
    ({ [column]: value == null ? null : JSON.stringify(value) }) as {
      [K in C]: string | null;
    },
  fromRow: (row: { [K in C]: string | null } & { status?: unknown }) =>
    row.status === status ? (JSON.parse(row[column] ?? '{}') as T) : undefined,
});

/**
 * An operation: a long act, recorded when accepted and run by a worker (see 018_operations.ts). Callers never update
 * it, so it has no version: the worker moves it (claims, progress, the end) and keeps updated_at, hidden like the
 * rest of its bookkeeping (what the job needs, who asked, the lease).
 */
export const OPERATION_RECORD = defineRecord({
  name: 'Operation',
  description:
    'A long act (an import, a paste, a document, a delivery, a package): poll get_operation_status until its status is succeeded, failed or canceled.',
  table: 'operations',
  owner: 'studio',
  versioned: false,
  archivable: false,
  fields: {
    /** The job that runs it (src/jobs). */
    kind: field(z.string().describe('What it does, e.g. import_commit or document_render.'), {
      write: 'create',
      required: true,
    }),
    action: field(z.string().describe('The action that started it.'), { write: 'create', required: true }),
    projectId: field(Id.nullable(), { write: 'create' }),
    /** The permission a member needs to see it: the starting action's. */
    scope: field(z.string(), { write: 'create', required: true, hidden: true }),
    status: field(OperationStatus, { default: 'queued' }),
    progress: field(
      z
        .strictObject({ completed: z.int().min(0), total: z.int().min(0) })
        .describe('Units done of the total (rows, pages); total 0 while unknown.'),
      {
        default: { completed: 0, total: 0 },
        columns: {
          toColumns: (p: { completed: number; total: number }) => ({
            progress_completed: p.completed,
            progress_total: p.total,
          }),
          fromRow: (row) => ({ completed: row.progress_completed, total: row.progress_total }),
        },
      },
    ),
    result: field(
      z
        .record(z.string(), z.unknown())
        .optional()
        .describe("Present once succeeded: what it made (the starting action's description says its shape)."),
      { columns: jsonWhen<Record<string, unknown>, 'result'>('result', 'succeeded') },
    ),
    problem: field(StoredProblem.optional().describe('Present once failed: the error, with its stable code.'), {
      columns: jsonWhen<z.output<typeof StoredProblem>, 'problem'>('problem', 'failed'),
    }),
    /** Canonical JSON of what the job needs. */
    input: field(z.string(), { write: 'create', required: true, hidden: true }),
    /** The member it acts for. */
    requestedBy: field(Id, { write: 'create', required: true, hidden: true }),
    requestedVia: field(z.enum(ACTOR_CHANNELS).nullable(), { write: 'create', hidden: true }),
    attempts: field(z.int(), { default: 0, hidden: true }),
    /** The worker holding it, and until when; a lease that runs out lets another take it up. */
    claimedBy: field(z.string().nullable(), { hidden: true }),
    leaseUntil: field(Timestamp.nullable(), { hidden: true }),
    cancelRequested: field(z.boolean().describe('A cancel was asked and takes effect at its next step.'), {
      default: false,
      columns: {
        toColumns: (asked: boolean) => ({ cancel_requested: asked ? 1 : 0 }),
        // A cancel asked of an operation that ended anyway is no longer pending.
        fromRow: (row: { cancel_requested: number; status?: unknown }) =>
          row.cancel_requested === 1 && !ended(row.status as string),
      },
    }),
    startedAt: field(Timestamp.nullable()),
    finishedAt: field(Timestamp.nullable()),
    updatedAt: field(Timestamp, { hidden: true }),
  },
  order: [
    'id',
    'kind',
    'action',
    'projectId',
    'status',
    'progress',
    'result',
    'problem',
    'cancelRequested',
    'createdAt',
    'startedAt',
    'finishedAt',
  ],
});

export type OperationRow = TableOf<typeof OPERATION_RECORD>;

declare module '../../db/schema.js' {
  interface Database {
    operations: OperationRow;
  }
}
