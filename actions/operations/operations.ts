import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as operations from '../../src/jobs/operations.js';
import { OperationId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { Operation } from './records.js';

/** A fake id for examples: the shape the API mints, no meaning. */
export const OPERATION_EXAMPLE = '0000000000000000000000000q';

export const getOperationStatus = defineAction({
  name: 'get_operation_status',
  kind: 'procedure',
  effect: 'query',
  domain: 'operations',
  summary: 'Poll a long act (import, document, delivery): its status and progress, then result or problem.',
  description:
    'The operation an action answered with (202 and Location over HTTP, or an operation record): status queued or running while it works (poll again in about a second), then succeeded with its result, failed with a problem carrying a stable code (stop polling and act on it), or canceled. Only members whose role may do the act that started it, and who reach its project, can see it: any other answers NOT_FOUND, as the project does.',
  intents: ['is the export finished yet', 'how is the import going', 'check on a job I started'],
  scope: 'member',
  input: z.strictObject({ operationId: OperationId }),
  output: Operation,
  errors: ['NOT_FOUND'],
  example: { operationId: OPERATION_EXAMPLE },
  handler: (ctx, input) => operations.getOperation(ctx, input.operationId),
});

export const listOperations = defineAction({
  name: 'list_operations',
  kind: 'procedure',
  effect: 'query',
  domain: 'operations',
  summary: "List the studio's long acts (imports, documents, deliveries), newest first.",
  description:
    "The studio's operations you may see (those of acts your role may do, on projects you reach), newest first (sort createdAt for oldest first), each with its status and progress; filter by status (running finds what is still working) or projectId.",
  scope: 'member',
  input: operations.OPERATION_LISTING.input,
  output: page(Operation),
  errors: ['NOT_FOUND'],
  example: { status: 'running' },
  handler: (ctx, input) => operations.listOperations(ctx, input),
});

export const cancelOperation = defineAction({
  name: 'cancel_operation',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'operations',
  summary: 'Stop a long act: a queued one at once, a running one at its next step; nothing of it is applied.',
  description:
    'Cancels an operation: a queued one never starts; a running one stops at its next step and applies nothing (an import commits all its rows or none). Returns the operation: canceled, or still running with cancelRequested until its job stops. A finished operation cannot be canceled (VALIDATION_FAILED names its state). Asking twice changes nothing. Cancelling an operation of a project needs an edit grant on the project (a view grant: FORBIDDEN).',
  scope: 'member',
  input: z.strictObject({ operationId: OperationId }),
  output: Operation,
  errors: ['NOT_FOUND'],
  example: { operationId: OPERATION_EXAMPLE },
  handler: (ctx, input) => operations.cancelOperation(ctx, input.operationId),
});
