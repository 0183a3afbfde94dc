import { ServiceError } from '../../core/errors.js';
import { nowIso } from '../../core/ids.js';
import { refusalText, sendMail } from '../../files/mail.js';
import { loadDelivery, markDeliverySent, presentDelivery } from './deliveries.js';
import { loadDocument } from './documents.js';
import { MEDIA_TYPES } from './formats.js';
import { assertDeliveryConfigured } from './mail-config.js';
import { documentBytes } from './package-stream.js';
import { type DocumentWork, readNow } from './work.js';

/** `<delivery id@the from address's domain>`: one Message-ID per delivery, whatever happens to the sending. */
export function messageIdFor(deliveryId: string, mailFrom: string): string {
  const domain = /@([^\s>]+)/.exec(mailFrom)?.[1] ?? 'studio.invalid';
  return `<${deliveryId}@${domain}>`;
}

/**
 * deliver_document's work, after requestDelivery queued it: sends the document as an email attachment (streamed from
 * the blob store) and records it sent, or records the mail server's refusal and fails with DELIVERY_FAILED. A
 * delivery no longer queued is answered as it is and never sent again. A crash between the mail server's acceptance
 * and the record can only repeat the send (SMTP has no way to ask); the repeat carries the same Message-ID, which
 * mail systems treat as the same message.
 */
export async function sendDelivery(work: DocumentWork, req: { projectId: string; deliveryId: string }) {
  const { delivery, document } = await readNow(work, async (ctx) => {
    const delivery = await loadDelivery(ctx, req.projectId, req.deliveryId);
    return { delivery, document: await loadDocument(ctx, req.projectId, delivery.document_id) };
  });
  if (delivery.status !== 'queued') return presentDelivery(delivery);
  const fail = async (code: 'DELIVERY_FAILED' | 'DELIVERY_NOT_CONFIGURED', detail: string) => {
    // Recorded on its own, outside the job's commit: the operation fails, and the delivery must say why.
    await work.store.write((tx) =>
      tx
        .updateTable('document_deliveries')
        .set({ status: 'failed', error_code: code, error_detail: detail, updated_at: nowIso() })
        .where('id', '=', delivery.id)
        .where('status', '=', 'queued')
        .execute(),
    );
  };
  try {
    assertDeliveryConfigured(work.config);
  } catch (err) {
    await fail('DELIVERY_NOT_CONFIGURED', (err as ServiceError).detail);
    throw err;
  }
  let sent: { messageId: string };
  const content = await work.store.readSnapshot((db) =>
    documentBytes(db, work.files, {
      id: document.id,
      kind: document.kind,
      sha256: document.blob_sha256,
      createdAt: document.created_at,
    }),
  );
  try {
    sent = await sendMail(work.config, {
      to: delivery.recipient,
      subject: delivery.subject,
      text: `${delivery.message}\n\nAttached: ${document.filename}\n`,
      messageId: messageIdFor(delivery.id, work.config.mailFrom!),
      attachment: {
        filename: document.filename,
        content,
        contentType: MEDIA_TYPES[document.format],
      },
    });
  } catch (err) {
    content.destroy();
    const detail = refusalText(err);
    await fail('DELIVERY_FAILED', detail);
    throw new ServiceError(
      'DELIVERY_FAILED',
      `The mail server did not take the email to ${delivery.recipient}: ${detail}. Check the address and deliver it again.`,
    );
  }
  return work.commit((ctx) => markDeliverySent(ctx, req.projectId, delivery.id, sent.messageId));
}
