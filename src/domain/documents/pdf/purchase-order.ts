import type { Currency } from '../../../../db/vocabulary.js';
import type { BlobStore } from '../../../files/blob-store.js';
import { openPdf, type Pdf } from '../../../files/pdf-kit.js';
import { streamToBlob } from '../../../files/stream-to-blob.js';
import type { SupplierCopy } from '../../purchase-orders/supplier-copy.js';
import type { PurchaseOrderContent } from '../../purchase-orders/shapes.js';
import { dateText, moneyText, quantityText, unitMoneyText } from '../figures.js';
import { stampFooters } from './footer.js';
import { CONTENT_WIDTH, ensureSpace, MUTED, PAGE, rule, type } from './layout.js';
import type { RenderedFile } from './render.js';

type Line = PurchaseOrderContent['lines'][number];

/** A scale-4 ratio as a percentage: "2000" → "20 %", "125" → "1.25 %". */
const percentText = (ratio4: string) => `${quantityText((BigInt(ratio4) * 100n).toString())} %`;

/** What a revision that is no longer the one to work from says at its top, so a stale copy is never acted on. */
const STATE_WARNINGS: Partial<Record<SupplierCopy['state'], string>> = {
  superseded: 'Superseded by a later revision of this order: do not supply from this copy.',
  voided: 'This order was cancelled: do not supply from this copy.',
};

/** The heading block: the studio, "Purchase order N, revision M", the supplier and its reference, when issued. */
function drawHeading(doc: Pdf, copy: SupplierCopy) {
  const c = copy.content;
  doc.addPage();
  type(doc, 'bold', 12).text(c.studioName, PAGE.left, PAGE.top, { width: CONTENT_WIDTH });
  doc.moveDown(1.5);
  type(doc, 'regular', 11, MUTED).text(`PURCHASE ORDER ${c.orderNumber}, REVISION ${c.revisionNumber}`);
  doc.moveDown(0.3);
  type(doc, 'bold', 22).text(`To ${c.supplier.name}`, { width: CONTENT_WIDTH });
  doc.moveDown(0.3);
  const reference = c.supplierReference ? ` · your reference ${c.supplierReference}` : '';
  type(doc, 'regular', 11, MUTED).text(`Issued ${dateText(c.issuedAt)}${reference}`, { width: CONTENT_WIDTH });
  const warning = STATE_WARNINGS[copy.state];
  if (warning) {
    doc.moveDown(0.6);
    type(doc, 'bold', 11).text(warning, { width: CONTENT_WIDTH });
  }
  doc.moveDown(1);
}

/** Where and when to deliver, and the studio's note to the supplier. */
function drawDelivery(doc: Pdf, c: PurchaseOrderContent) {
  type(doc, 'bold', 11).text('Deliver to', PAGE.left, doc.y);
  type(doc, 'regular', 11).text(c.deliveryAddress.trim() || 'To be confirmed with the studio.', {
    width: CONTENT_WIDTH,
  });
  if (c.wantedBy) type(doc, 'regular', 11).text(`Wanted by ${dateText(c.wantedBy)}`);
  if (c.notes.trim()) {
    doc.moveDown(0.6);
    type(doc, 'regular', 11).text(c.notes, { width: CONTENT_WIDTH, lineGap: 2 });
  }
  doc.moveDown(1);
}

/** One line: reference, product code and description, then quantity × trade price = net + tax (rate) = gross. */
function drawLine(doc: Pdf, l: Line, currency: Currency) {
  ensureSpace(doc, 60);
  rule(doc);
  doc.moveDown(0.5);
  const codes = [l.reference, l.productCode && `code ${l.productCode}`].filter(Boolean).join(', ');
  type(doc, 'bold', 12).text(codes ? `${l.description}  (${codes})` : l.description, PAGE.left, doc.y, {
    width: CONTENT_WIDTH,
  });
  const unit = l.quantity.unit ? ` ${l.quantity.unit}` : '';
  const f = l.tradeFigures;
  doc.moveDown(0.2);
  type(doc, 'regular', 11).text(
    `${quantityText(l.quantity.amount4)}${unit} × ${unitMoneyText(l.tradePrice.amount4, currency)} = ${moneyText(f.net.amount4, currency)} + tax ${percentText(l.taxRate.ratio4)} ${moneyText(f.tax.amount4, currency)} = ${moneyText(f.gross.amount4, currency)}`,
    { width: CONTENT_WIDTH },
  );
  doc.moveDown(0.5);
}

/** The order's totals: plain sums of the rounded lines (src/core/taxed-lines.ts), frozen with the revision. */
function drawTotals(doc: Pdf, c: PurchaseOrderContent) {
  ensureSpace(doc, 80);
  rule(doc);
  doc.moveDown(0.8);
  const currency = c.currency as Currency;
  type(doc, 'regular', 11).text(`Net ${moneyText(c.tradeTotals.net.amount4, currency)}`, PAGE.left, doc.y);
  type(doc, 'regular', 11).text(`Tax ${moneyText(c.tradeTotals.tax.amount4, currency)}`);
  type(doc, 'bold', 13).text(`Total ${moneyText(c.tradeTotals.gross.amount4, currency)}`);
}

/**
 * A purchase order revision as a PDF for its supplier, drawn from the revision's frozen content only (studio,
 * supplier, lines at trade prices, totals, delivery details), so no client price, markup, project or client name can
 * reach it. Every page carries the studio, the order and "Page n of N".
 */
export async function renderPurchaseOrderPdf(files: BlobStore, copy: SupplierCopy): Promise<RenderedFile> {
  const c = copy.content;
  const label = `Purchase order ${c.orderNumber}, revision ${c.revisionNumber}`;
  const doc = await openPdf({ title: `${label} – ${c.supplier.name}`, author: c.studioName, subject: label });
  let pageCount = 0;
  const kept = await streamToBlob(files, doc, async () => {
    drawHeading(doc, copy);
    drawDelivery(doc, c);
    for (const l of c.lines) drawLine(doc, l, c.currency as Currency);
    drawTotals(doc, c);
    pageCount = stampFooters(doc, `${c.studioName}  ·  ${label}`);
    doc.end();
  });
  return { ...kept, pageCount };
}
