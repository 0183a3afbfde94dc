import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as deliveries from '../../src/domain/documents/deliveries.js';
import { EXAMPLE } from '../projects/shapes.js';
import { DeliveryId, ProjectId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { DOCUMENT_EX } from './documents.js';
import { DocumentDelivery } from './records.js';

export const listDocumentDeliveries = defineAction({
  name: 'list_document_deliveries',
  kind: 'procedure',
  effect: 'query',
  domain: 'documents',
  summary: "List the email deliveries of a project's documents, newest first.",
  description:
    "Every delivery of the project's documents by email, newest first (sort: createdAt for oldest first): recipient, subject, status (queued, sent or failed, with the mail server's answer when it failed), Message-ID and when it was sent. Narrow to one document with documentId, to a status, or to a recipient address. No record is kept of an email being opened or read.",
  scope: 'documents:read',
  input: deliveries.DELIVERY_LISTING.input,
  output: page(DocumentDelivery),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, status: 'failed' },
  handler: (ctx, input) => deliveries.listDeliveries(ctx, input),
});

export const getDocumentDelivery = defineAction({
  name: 'get_document_delivery',
  kind: 'procedure',
  effect: 'query',
  domain: 'documents',
  summary: 'Read one email delivery of a document and how it went.',
  description:
    "The delivery with its document, recipient, subject, message, status and, when the mail server refused it, its error (a stable code and the server's answer): check the address and deliver_document again. A delivery of another project answers NOT_FOUND.",
  scope: 'documents:read',
  input: z.strictObject({ projectId: ProjectId, deliveryId: DeliveryId.describe('From list_document_deliveries.') }),
  output: DocumentDelivery,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, deliveryId: DOCUMENT_EX.deliveryId },
  handler: (ctx, input) => deliveries.getDelivery(ctx, input.projectId, input.deliveryId),
});
