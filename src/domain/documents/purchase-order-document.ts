import { supplierCopy } from '../purchase-orders/supplier-copy.js';
import { recordDocument } from './documents.js';
import { fileNameFor } from './formats.js';
import { renderPurchaseOrderPdf } from './pdf/purchase-order.js';
import { type DocumentWork, readNow } from './work.js';

export interface PurchaseOrderDocumentRequest {
  projectId: string;
  purchaseOrderId: string;
  /** Default: the order's current revision. */
  revisionNumber?: number | undefined;
}

/**
 * generate_document's purchase_order: one issued revision of an order rendered for its supplier from the revision's
 * frozen content (trade prices, never a client price or markup), recorded as the project's document naming the
 * revision, so deliver_document can send it to the supplier's email.
 */
export async function generatePurchaseOrderDocument(work: DocumentWork, req: PurchaseOrderDocumentRequest) {
  const copy = await readNow(work, (ctx) => supplierCopy(ctx, req.projectId, req.purchaseOrderId, req.revisionNumber));
  const file = await renderPurchaseOrderPdf(work.files, copy);
  const c = copy.content;
  const label = `Purchase order ${c.orderNumber} revision ${c.revisionNumber}`;
  return work.commit((ctx) =>
    recordDocument(ctx, {
      projectId: req.projectId,
      kind: 'purchase_order',
      format: 'pdf',
      source: { kind: 'purchase_order_revision', revisionId: copy.revisionId },
      title: `${label} – ${c.supplier.name}`,
      filename: fileNameFor(`${label} ${c.supplier.name}`, 'pdf'),
      sha256: file.sha256,
      byteSize: file.size,
      pageCount: file.pageCount,
    }),
  );
}
