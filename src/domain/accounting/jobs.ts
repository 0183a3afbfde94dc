import { defineJob } from '../../jobs/job.js';
import type { PushJobInput } from './accept-push.js';
import { runPush, settlePush } from './push.js';

/**
 * push_invoice_to_accounting's long act. Retried after an interruption like any job: the invoice's Idempotency-Key is
 * the same on every attempt, so Xero makes it once.
 */
export const PUSH_INVOICE = defineJob<PushJobInput, unknown>({
  kind: 'accounting_push',
  run: (job) => runPush(job),
  settle: (tx, end) => settlePush(tx, end.input.pushId),
});
