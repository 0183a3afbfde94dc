import { z } from 'zod';
import { OPERATION_STATUSES } from '../../db/vocabulary.js';
import { Id, named, Timestamp } from '../../src/core/values.js';

export const OperationStatus = z
  .enum(OPERATION_STATUSES)
  .describe('queued, then running, then succeeded (see result), failed (see problem) or canceled.');
named(OperationStatus, 'OperationStatus');

export const Operation = z
  .strictObject({
    id: Id,
    kind: z.string().describe('What it does, e.g. import_commit or document_render.'),
    action: z.string().describe('The action that started it.'),
    projectId: Id.nullable(),
    status: OperationStatus,
    progress: z
      .strictObject({ completed: z.int().min(0), total: z.int().min(0) })
      .describe('Units done of the total (rows, pages); total 0 while unknown.'),
    result: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Present once succeeded: what it made (the starting action's description says its shape)."),
    problem: z
      .strictObject({
        type: z.string(),
        title: z.string(),
        status: z.int(),
        code: z.string().describe('A stable error code (docs/errors.md); stop polling and act on it.'),
        detail: z.string(),
        errors: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
      })
      .catchall(z.unknown())
      .optional()
      .describe('Present once failed: the error, with its stable code.'),
    cancelRequested: z.boolean().describe('A cancel was asked and takes effect at its next step.'),
    createdAt: Timestamp,
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
  })
  .describe(
    'A long act (an import, a paste, a document, a delivery, a package): poll get_operation_status until its status is succeeded, failed or canceled.',
  );
named(Operation, 'Operation');
