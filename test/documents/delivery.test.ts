/**
 * deliver_document's work against a real SMTP server running in this test process (smtp-server): the email arrives
 * with its recipient, subject, text and the PDF attached byte for byte, and the delivery is recorded sent; a refusal
 * by the server is recorded with its answer and fails with DELIVERY_FAILED; without email configured nothing is
 * queued and the answer is 503 DELIVERY_NOT_CONFIGURED.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { requestDelivery } from '../../src/domain/documents/deliveries.js';
import { sendDelivery } from '../../src/domain/documents/deliver.js';
import { generateDocument } from '../../src/domain/documents/generate.js';
import { type Trpc, trpc } from '../helpers/clients.js';
import { createTestApp, openTestApp, type TestApp } from '../helpers/in-process.js';
import { openMailServer } from '../helpers/mail.js';
import { pricedProject } from './fixture.js';
import { workFor } from './work.js';

/** A mail server of the test's own: keeps every message, refuses recipients at refused.example. */
const { received, env: mailEnv } = openMailServer();

let app: TestApp;
let owner: Trpc;
let project: Awaited<ReturnType<typeof pricedProject>>;
let pdf: Awaited<ReturnType<typeof generateDocument>>;

openTestApp((opened) => ({ app, owner } = opened), mailEnv);
beforeAll(async () => {
  project = await pricedProject(owner);
  pdf = await generateDocument(await workFor(app), { projectId: project.id, kind: 'client_schedule' });
});

const deliver = async (recipient: string, extra: { subject?: string; message?: string } = {}) => {
  const work = await workFor(app, app.token, 'deliver_document');
  const queued = await work.commit((ctx) =>
    requestDelivery(ctx, { projectId: project.id, documentId: pdf.id, recipient, ...extra }),
  );
  return { queued, work };
};

describe('delivering a document by email', () => {
  it('sends the PDF to the recipient with the subject and message, and records it sent', async () => {
    const { queued, work } = await deliver('client@example.com', {
      subject: 'Your schedule for Harbour House',
      message: 'Dear Ms Marsden,\n\nHere is the schedule for your approval.',
    });
    expect(queued.status).toBe('queued');
    const sent = await sendDelivery(work, { projectId: project.id, deliveryId: queued.id });
    expect(sent).toMatchObject({ status: 'sent', error: null, recipient: 'client@example.com' });
    expect(sent.messageId).toBe(`<${queued.id}@hartley-rowe.example>`);
    expect(sent.sentAt).not.toBeNull();

    expect(received).toHaveLength(1);
    const { from, to, mail } = received[0]!;
    expect(from).toBe('studio@hartley-rowe.example');
    expect(to).toEqual(['client@example.com']);
    expect(mail.subject).toBe('Your schedule for Harbour House');
    expect(mail.from?.text).toBe('"Hartley & Rowe" <studio@hartley-rowe.example>');
    expect(mail.messageId).toBe(sent.messageId);
    expect(mail.text).toContain('Dear Ms Marsden,\n\nHere is the schedule for your approval.');
    expect(mail.text).toContain(`Attached: ${pdf.filename}`);
    expect(mail.attachments).toHaveLength(1);
    const attachment = mail.attachments[0]!;
    expect(attachment.filename).toBe(pdf.filename);
    expect(attachment.contentType).toBe('application/pdf');
    expect(createHash('sha256').update(attachment.content).digest('hex')).toBe(pdf.sha256);

    const read = await owner.documents.getDocumentDelivery.query({ projectId: project.id, deliveryId: queued.id });
    expect(read).toEqual(sent);
    // Sending it again does nothing: a delivery is sent once.
    expect(await sendDelivery(work, { projectId: project.id, deliveryId: queued.id })).toEqual(sent);
    expect(received).toHaveLength(1);
  });

  it("records the mail server's refusal and fails with DELIVERY_FAILED", async () => {
    const { queued, work } = await deliver('nobody@refused.example');
    await expect(sendDelivery(work, { projectId: project.id, deliveryId: queued.id })).rejects.toMatchObject({
      code: 'DELIVERY_FAILED',
    });
    const read = await owner.documents.getDocumentDelivery.query({ projectId: project.id, deliveryId: queued.id });
    expect(read).toMatchObject({ status: 'failed', sentAt: null, messageId: null });
    expect(read.error?.code).toBe('DELIVERY_FAILED');
    expect(read.error?.detail).toContain('550');
    const failed = await owner.documents.listDocumentDeliveries.query({ projectId: project.id, status: 'failed' });
    expect(failed.items.map((d) => d.id)).toEqual([queued.id]);
  });
});

describe('without email configured', () => {
  it('answers 503 DELIVERY_NOT_CONFIGURED and queues nothing', async () => {
    const bare = await createTestApp();
    try {
      const p = await pricedProject(trpc(bare.url, bare.token), 'No mail');
      const doc = await generateDocument(await workFor(bare), { projectId: p.id, kind: 'spec_sheets' });
      const work = await workFor(bare, bare.token, 'deliver_document');
      const attempt = work.commit((ctx) =>
        requestDelivery(ctx, { projectId: p.id, documentId: doc.id, recipient: 'client@example.com' }),
      );
      await expect(attempt).rejects.toMatchObject({ code: 'DELIVERY_NOT_CONFIGURED', status: 503 });
      await expect(attempt).rejects.toMatchObject({ detail: expect.stringContaining('STUDIO_SMTP_URL') });
      const none = await trpc(bare.url, bare.token).documents.listDocumentDeliveries.query({ projectId: p.id });
      expect(none.items).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
