import { defineJob } from '../../jobs/job.js';
import { sendDelivery } from './deliver.js';
import {
  type EstimateDocumentRequest,
  type ExportRequest,
  exportClientSchedule,
  generateEstimateDocument,
  type GenerateRequest,
  generateDocument,
  retainClientLinkPdf,
} from './generate.js';
import { createProjectPackage } from './package.js';
import { generatePurchaseOrderDocument, type PurchaseOrderDocumentRequest } from './purchase-order-document.js';

/**
 * The documents' long acts, run by the operation workers: each job is its domain function as it is (a JobContext is a
 * DocumentWork), so the slow part (rendering, zipping, talking to a mail server) runs outside any transaction and the
 * record is written in the job's one commit.
 */
export const RENDER_DOCUMENT = defineJob({
  kind: 'document_render',
  // An estimate names its revision, a purchase order its order; every other PDF is the client document's.
  run: (job) => {
    const input = job.input as GenerateRequest | EstimateDocumentRequest | PurchaseOrderDocumentRequest;
    if ('purchaseOrderId' in input) return generatePurchaseOrderDocument(job, input);
    return 'revisionId' in input ? generateEstimateDocument(job, input) : generateDocument(job, input);
  },
});

export const EXPORT_SCHEDULE = defineJob({
  kind: 'client_export',
  run: (job) => exportClientSchedule(job, job.input as ExportRequest),
});

export const RETAIN_SHARE_PDF = defineJob({
  kind: 'share_pdf',
  run: (job) => retainClientLinkPdf(job, job.input as { projectId: string; shareId: string }),
});

export const PACKAGE_PROJECT = defineJob({
  kind: 'project_package',
  run: (job) => createProjectPackage(job, job.input as { projectId: string }),
});

export const DELIVER_DOCUMENT = defineJob({
  kind: 'document_delivery',
  // One attempt: a mail server that took the message must never be sent it again by a retried job.
  maxAttempts: 1,
  run: (job) => sendDelivery(job, job.input as { projectId: string; deliveryId: string }),
});
