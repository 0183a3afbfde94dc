import { defineJob } from '../../jobs/job.js';
import { type SendJobInput, sendEnquiryMails, settleUnsent } from './send.js';

/** send_enquiry's long act: the emails to the suppliers, sent by an operation's worker outside any transaction. */
export const SEND_ENQUIRY = defineJob<SendJobInput, unknown>({
  kind: 'enquiry_send',
  // One attempt: a mail server that took an email must never be sent it again by a retried job.
  maxAttempts: 1,
  run: (job) => sendEnquiryMails(job),
  settle: (tx, end) => settleUnsent(tx, end.input.enquiryId),
});
