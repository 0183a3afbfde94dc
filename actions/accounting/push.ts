import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import { ACCOUNTING_REVISION_PARTS } from '../../db/vocabulary.js';
import { PUSH_INVOICE } from '../../src/domain/accounting/jobs.js';
import { acceptPush } from '../../src/domain/accounting/accept-push.js';
import { SYNC_EVENT_LISTING, listSyncEvents } from '../../src/domain/accounting/sync-events.js';
import { SYNC_EVENT_RECORD } from '../../src/domain/accounting/sync-event-record.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { startOperation } from '../../src/jobs/operations.js';
import { EXAMPLE } from '../projects/shapes.js';
import { Operation } from '../operations/records.js';
import { EstimateRevisionId, ProjectChargeId, ProjectId } from '../shared/refs.js';

export const pushInvoiceToAccounting = defineAction({
  name: 'push_invoice_to_accounting',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'accounting',
  summary: "Send a draft sales invoice to Xero: a revision's deposit or accepted pieces, and/or charges.",
  description:
    "Bills what you choose: revision (a decided estimate revision: part deposit, or accepted_pieces as issued) and/or chargeIds (project charges not yet invoiced). Builds the invoice with exact amounts (each line's net and tax as the studio issued them, rounded once per line) and the accounts mapped with map_accounting_accounts (every kind billed must be mapped), then sends it by an operation (poll get_operation_status): the client made a Xero contact if needed, an ACCREC invoice in DRAFT for the studio to approve in Xero, sent with an Idempotency-Key derived from the invoice so a retry never makes two. Xero's totals are compared with ours; a difference fails the push with both figures. What it bills is marked invoiced at once and can never be billed again or changed; a push that fails gives it back. ACCOUNTING_NOT_CONNECTED: connect_accounting first. Send a fresh commandKey.",
  intents: [
    'send the deposit invoice to xero',
    'invoice the client for the fees in xero',
    'bill the accepted estimate in our accounts',
  ],
  scope: 'accounting:manage',
  keyed: true,
  guards: [frozenWhenArchived],
  startsOperation: true,
  input: z
    .strictObject({
      projectId: ProjectId,
      revision: z
        .strictObject({
          revisionId: EstimateRevisionId.describe('A revision the client accepted in whole or in part.'),
          part: z
            .enum(ACCOUNTING_REVISION_PARTS)
            .describe('deposit: the deposit recorded with the decision; accepted_pieces: each accepted piece.'),
        })
        .optional(),
      chargeIds: z
        .array(ProjectChargeId)
        .min(1)
        .max(200)
        .optional()
        .describe('Charges not yet invoiced (list_project_charges with invoiced: false).'),
    })
    .refine((i) => i.revision || i.chargeIds, 'Send revision, chargeIds or both: something to bill.'),
  output: Operation,
  errors: ['NOT_FOUND', 'ARCHIVED', 'CHARGE_INVOICED', 'ALREADY_INVOICED', 'ACCOUNTING_NOT_CONNECTED'],
  example: {
    projectId: EXAMPLE.projectId,
    revision: { revisionId: '0000000000000000000000000r', part: 'deposit' },
    chargeIds: ['0000000000000000000000000h'],
    commandKey: '5f0c6a1e-3b7d-4c2a-9e8f-1a2b3c4d5e6f',
  },
  handler: async (ctx, input) =>
    startOperation(ctx, {
      kind: PUSH_INVOICE.kind,
      action: 'push_invoice_to_accounting',
      scope: 'accounting:manage',
      input: await acceptPush(ctx, input),
    }),
});

export const AccountingSyncEvent = SYNC_EVENT_RECORD.output;

export const listAccountingSyncEvents = defineAction({
  name: 'list_accounting_sync_events',
  kind: 'procedure',
  effect: 'query',
  domain: 'accounting',
  summary: 'Every attempt to push an invoice to Xero and how it went, newest first.',
  description:
    "Each attempt's outcome: pushed (with Xero's invoice id and number), failed (with the reason, Xero's own messages for a validation error) or retried (Xero asked to wait and the push did). Newest first (sort createdAt for oldest first); filter by projectId. Pass nextCursor back as cursor for the next page.",
  intents: ['did the invoice reach xero', 'show the accounting sync history', 'why did the xero push fail'],
  scope: 'accounting:manage',
  input: SYNC_EVENT_LISTING.input,
  output: page(AccountingSyncEvent),
  errors: ['NOT_FOUND'],
  example: { limit: 20 },
  handler: (ctx, input) => listSyncEvents(ctx, input),
});
