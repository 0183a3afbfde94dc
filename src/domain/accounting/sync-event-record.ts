import { z } from 'zod';
import { ACCOUNTING_SYNC_OUTCOMES } from '../../../db/vocabulary.js';
import { Id } from '../../core/values.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';

/**
 * One attempt to push an invoice to the accounting provider and how it went: written by the push job (sync-events.ts),
 * never changed, listed by list_accounting_sync_events. When it happened is answered as `at`.
 */
export const SYNC_EVENT_RECORD = defineRecord({
  name: 'AccountingSyncEvent',
  description:
    'One attempt to push an invoice to Xero: pushed (with the invoice), failed or retried (with the reason).',
  table: 'accounting_sync_events',
  owner: 'studio',
  versioned: false,
  archivable: false,
  created: { key: 'at' },
  fields: {
    pushId: field(Id.describe('The push the attempt belongs to.')),
    projectId: field(Id),
    outcome: field(
      z.enum(ACCOUNTING_SYNC_OUTCOMES).describe('pushed, failed (see reason) or retried (Xero asked to wait).'),
    ),
    providerInvoiceId: field(z.string().nullable().describe("Xero's InvoiceID once pushed.")),
    providerInvoiceNumber: field(z.string().nullable().describe("Xero's invoice number once pushed, e.g. INV-0042.")),
    reason: field(z.string().nullable().describe("Why it failed or waited, in Xero's words where it gave them.")),
  },
});

export type AccountingSyncEventRow = TableOf<typeof SYNC_EVENT_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    accounting_sync_events: AccountingSyncEventRow;
  }
}
