import type { BlobStore } from '../../../files/blob-store.js';
import { openPdf, type Pdf } from '../../../files/pdf-kit.js';
import { streamToBlob } from '../../../files/stream-to-blob.js';
import type { ClientEstimateRevision } from '../../estimates/client-revision.js';
import { clientWords, localeOf } from '../client-words.js';
import { ROUNDING_NOTE } from './cover.js';
import { dateText, moneyText, PRICE_STATE_WORDS } from '../figures.js';
import { stampFooters } from './footer.js';
import { CONTENT_WIDTH, ensureSpace, MUTED, PAGE, rule, type } from './layout.js';
import type { RenderedFile } from './render.js';

type Piece = ClientEstimateRevision['pieces'][number];

/** The heading block: the studio, "Estimate N, revision M", the title, when issued and until when it is valid. */
function drawHeading(doc: Pdf, r: ClientEstimateRevision) {
  doc.addPage();
  type(doc, 'bold', 12).text(r.studioName, PAGE.left, PAGE.top, { width: CONTENT_WIDTH });
  doc.moveDown(1.5);
  type(doc, 'regular', 11, MUTED).text(`ESTIMATE ${r.estimateNumber}, REVISION ${r.revisionNumber}`);
  doc.moveDown(0.3);
  type(doc, 'bold', 24).text(r.title, { width: CONTENT_WIDTH });
  doc.moveDown(0.3);
  const valid = r.validUntil ? `; valid until ${r.validUntil}` : '';
  type(doc, 'regular', 11, MUTED).text(`${r.projectName} · issued ${dateText(r.issuedAt)}${valid}`);
  if (r.introduction.trim()) {
    doc.moveDown(1.2);
    type(doc, 'regular', 11).text(r.introduction, { width: CONTENT_WIDTH, lineGap: 3, paragraphGap: 6 });
  }
  doc.moveDown(1.2);
}

/** One piece: wording and reference, description, then quantity × unit price = net + tax = gross (or its state). */
function drawPiece(doc: Pdf, p: Piece, currency: ClientEstimateRevision['currency']) {
  ensureSpace(doc, 70);
  rule(doc);
  doc.moveDown(0.5);
  type(doc, 'bold', 12).text(p.reference ? `${p.wording}  (${p.reference})` : p.wording, PAGE.left, doc.y, {
    width: CONTENT_WIDTH,
  });
  if (p.description) type(doc, 'regular', 10, MUTED).text(p.description, { width: CONTENT_WIDTH });
  const figures =
    p.gross && p.unitPrice && p.net && p.tax
      ? `${clientWords(localeOf(currency)).quantity(p.quantity.amount4, p.quantity.unit)} × ${moneyText(p.unitPrice.amount4, currency)} = ${moneyText(p.net.amount4, currency)} + tax ${moneyText(p.tax.amount4, currency)} = ${moneyText(p.gross.amount4, currency)}${p.excludedFromTotal ? ' (not in the total)' : ''}`
      : `${PRICE_STATE_WORDS[p.priceState]}; not in the total`;
  doc.moveDown(0.2);
  type(doc, 'regular', 11).text(figures, { width: CONTENT_WIDTH });
  doc.moveDown(0.5);
}

/** The totals, what they leave out, the deposit and the payment terms. */
function drawTotals(doc: Pdf, r: ClientEstimateRevision) {
  ensureSpace(doc, 140);
  rule(doc);
  doc.moveDown(0.8);
  const c = r.currency;
  type(doc, 'regular', 11).text(`Net ${moneyText(r.totals.net.amount4, c)}`, PAGE.left, doc.y);
  type(doc, 'regular', 11).text(`Tax ${moneyText(r.totals.tax.amount4, c)}`);
  type(doc, 'bold', 13).text(`Total ${moneyText(r.totals.gross.amount4, c)}`);
  type(doc, 'regular', 11).text(`Deposit ${moneyText(r.deposit.amount.amount4, c)}`);
  if (r.leftOutOfTotal.length) {
    doc.moveDown(0.5);
    type(doc, 'regular', 10, MUTED).text(`Not in the total: ${r.leftOutOfTotal.map((l) => l.wording).join(', ')}.`, {
      width: CONTENT_WIDTH,
    });
  }
  if (r.paymentTerms.trim()) {
    doc.moveDown(0.8);
    type(doc, 'regular', 11).text(r.paymentTerms, { width: CONTENT_WIDTH });
  }
  doc.moveDown(0.8);
  type(doc, 'regular', 8.5, MUTED).text(ROUNDING_NOTE, PAGE.left, doc.y, { width: CONTENT_WIDTH });
}

/**
 * An estimate revision as a PDF, drawn from its client projection only (ClientEstimateRevision: client prices, tax,
 * totals, deposit, terms), so no trade price, markup or margin can reach it. Every page carries the studio, the
 * estimate and "Page n of N".
 */
export async function renderEstimatePdf(files: BlobStore, r: ClientEstimateRevision): Promise<RenderedFile> {
  const label = `Estimate ${r.estimateNumber}, revision ${r.revisionNumber}`;
  const doc = await openPdf({ title: `${r.title} – ${label}`, author: r.studioName, subject: r.projectName });
  let pageCount = 0;
  const kept = await streamToBlob(files, doc, async () => {
    drawHeading(doc, r);
    for (const p of r.pieces) drawPiece(doc, p, r.currency);
    drawTotals(doc, r);
    pageCount = stampFooters(doc, `${r.studioName}  ·  ${label}`);
    doc.end();
  });
  return { ...kept, pageCount };
}
