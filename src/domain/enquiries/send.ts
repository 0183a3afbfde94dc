import { z } from 'zod';
import type { Db } from '../../../db/store.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { nowIso } from '../../core/ids.js';
import { refusalText, sendMail } from '../../files/mail.js';
import type { JobContext } from '../../jobs/job.js';
import { messageIdFor } from '../documents/deliver.js';
import { assertDeliveryConfigured } from '../documents/mail-config.js';
import { readNow } from '../documents/work.js';
import { getEnquiry, loadEnquiry, stateAfter, writeEnquiry } from './enquiries.js';
import { enquiryMail } from './mail.js';
import { itemsOf } from './record.js';

/**
 * Sending is document delivery's outbox: send_enquiry checks everything that can be checked (email configured, every
 * supplier addressable), queues one email per supplier and answers at once; an operation's worker then talks to the
 * mail server outside any transaction and records how each email went.
 */

const Address = z.email();
/** A supplier's address is used only when it is one address on one line: nothing typed reaches a header otherwise. */
const usable = (email: string | null): email is string =>
  !!email && !/[\r\n]/.test(email) && Address.safeParse(email).success;

export interface SendJobInput {
  projectId: string;
  enquiryId: string;
}

/**
 * Accepts a send: 503 DELIVERY_NOT_CONFIGURED without a mail server (nothing is queued), a refusal naming every
 * supplier without a usable email address, then each email to go queued and the enquiry sent. A draft sends to every
 * supplier; a sent enquiry sends again only the emails the mail server refused.
 */
export async function requestSend(ctx: ActionContext, projectId: string, enquiryId: string): Promise<SendJobInput> {
  assertDeliveryConfigured(ctx.config);
  const before = await loadEnquiry(ctx, projectId, enquiryId);
  const recipients = await ctx.db
    .selectFrom('enquiry_recipients as r')
    .innerJoin('suppliers as s', 's.id', 'r.supplier_id')
    .select(['r.supplier_id', 'r.mail_status', 's.name', 's.email'])
    .where('r.enquiry_id', '=', enquiryId)
    .orderBy('r.position')
    .execute();
  const failed = recipients.filter((r) => r.mail_status === 'failed');
  const state = stateAfter(
    before,
    before.state === 'draft' ? { act: 'send' } : { act: 'resend', failedMails: failed.length },
  );
  const going = before.state === 'draft' ? recipients : failed;
  const unaddressed = going.filter((r) => !usable(r.email));
  if (unaddressed.length) {
    const names = unaddressed.map((r) => r.name).join(', ');
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${names} ${unaddressed.length === 1 ? 'has' : 'have'} no usable email address, so nothing was sent: add one with update_supplier (email), then send again.`,
      {
        errors: unaddressed.map((r) => ({
          path: 'supplierIds',
          message: `${r.name} (${r.supplier_id}) has no usable email address.`,
        })),
      },
    );
  }
  for (const r of going) {
    await ctx.db
      .updateTable('enquiry_recipients')
      .set({ mail_status: 'queued', email: r.email!.toLowerCase(), mail_error: null })
      .where('enquiry_id', '=', enquiryId)
      .where('supplier_id', '=', r.supplier_id)
      .execute();
  }
  const cols = before.state === 'draft' ? { state, sent_at: ctx.now } : {};
  // A resend changes what the enquiry shows (its suppliers' mail), so its version moves on even when its columns do not.
  await writeEnquiry(ctx, before, cols, before.state === 'draft' ? 'Sent' : 'Resent failed emails of');
  return { projectId, enquiryId };
}

interface Outcome {
  supplierId: string;
  name: string;
  sent?: { messageId: string };
  refusal?: string;
}

/** Sends each queued email of the enquiry, one by one, outside any transaction; answers how each went. */
async function sendQueued(job: JobContext<SendJobInput>): Promise<Outcome[]> {
  const { projectId, enquiryId } = job.input;
  const { enquiry, queued, studioName } = await readNow(job, async (ctx) => ({
    enquiry: await loadEnquiry(ctx, projectId, enquiryId),
    queued: await ctx.db
      .selectFrom('enquiry_recipients as r')
      .innerJoin('suppliers as s', 's.id', 'r.supplier_id')
      .select(['r.supplier_id', 'r.email', 's.name'])
      .where('r.enquiry_id', '=', enquiryId)
      .where('r.mail_status', '=', 'queued')
      .orderBy('r.position')
      .execute(),
    studioName:
      (await ctx.queryRow<{ name: string }>('SELECT s.name FROM studios s WHERE s.id = ?', job.studioId))?.name ?? '',
  }));
  assertDeliveryConfigured(job.config);
  const outcomes: Outcome[] = [];
  for (const [i, r] of queued.entries()) {
    const mail = enquiryMail({
      enquiryId,
      title: enquiry.title,
      message: enquiry.message,
      replyBy: enquiry.reply_by,
      items: itemsOf(enquiry),
      supplierName: r.name,
      studioName,
    });
    try {
      const sent = await sendMail(job.config, {
        to: r.email!,
        ...mail,
        messageId: messageIdFor(`${enquiryId}.${r.supplier_id}`, job.config.mailFrom!),
      });
      outcomes.push({ supplierId: r.supplier_id, name: r.name, sent });
    } catch (err) {
      outcomes.push({ supplierId: r.supplier_id, name: r.name, refusal: refusalText(err) });
    }
    await job.progress(i + 1, queued.length);
  }
  return outcomes;
}

/** Records each email's outcome on its recipient row (only rows still queued: a result is recorded once). */
async function recordOutcomes(db: Db, enquiryId: string, outcomes: readonly Outcome[], now: string) {
  for (const o of outcomes) {
    await db
      .updateTable('enquiry_recipients')
      .set(
        o.sent
          ? { mail_status: 'sent', message_id: o.sent.messageId, sent_at: now, mail_error: null }
          : { mail_status: 'failed', mail_error: o.refusal ?? 'unknown' },
      )
      .where('enquiry_id', '=', enquiryId)
      .where('supplier_id', '=', o.supplierId)
      .where('mail_status', '=', 'queued')
      .execute();
  }
}

/**
 * The send operation's work. Every email sent: recorded in the job's one commit, with an audit event, and the
 * operation's result is the enquiry. Any refused: every outcome is recorded on its own (the operation fails, and the
 * suppliers must say how their email went) and the operation fails with DELIVERY_FAILED naming them; send_enquiry
 * sends those again. One attempt: a mail server that took an email must never be sent it again by a retried job.
 */
export async function sendEnquiryMails(job: JobContext<SendJobInput>) {
  const { projectId, enquiryId } = job.input;
  const outcomes = await sendQueued(job);
  const refused = outcomes.filter((o) => !o.sent);
  if (refused.length) {
    await job.store.write((tx) => recordOutcomes(tx, enquiryId, outcomes, nowIso()));
    throw new ServiceError(
      'DELIVERY_FAILED',
      `The mail server did not take the enquiry for ${refused.map((o) => `${o.name} (${o.refusal})`).join('; ')}. Check the address with update_supplier and send_enquiry again: only those are sent again.`,
    );
  }
  return job.commit(async (ctx) => {
    await recordOutcomes(ctx.db, enquiryId, outcomes, ctx.now);
    const enquiry = await loadEnquiry(ctx, projectId, enquiryId);
    ctx.audit({
      targetKind: 'enquiry',
      targetId: enquiryId,
      projectId,
      summary: `Emailed enquiry ${enquiry.title} to ${outcomes.map((o) => o.name).join(', ')}`,
      changes: { emailed: { from: null, to: outcomes.map((o) => o.supplierId) } },
    });
    return getEnquiry(ctx, projectId, enquiryId);
  });
}

/** When the operation ends without succeeding (interrupted, canceled), an email still queued is recorded failed. */
export async function settleUnsent(tx: Db, enquiryId: string) {
  await tx
    .updateTable('enquiry_recipients')
    .set({
      mail_status: 'failed',
      mail_error: 'The sending was interrupted before this email went; send_enquiry sends it again.',
    })
    .where('enquiry_id', '=', enquiryId)
    .where('mail_status', '=', 'queued')
    .execute();
}
