import type { Pdf } from '../../../files/pdf-kit.js';
import { moneyText } from '../figures.js';
import type { ClientDocumentView } from '../sources.js';
import { accent, CONTENT_WIDTH, lightTextOn, MUTED, PAGE, type } from './layout.js';

/**
 * The first page: the studio's band in its accent colour with its logo text or name, the document's title and what it
 * is, when it is as of, the count and total of pieces, then the introduction (flowing onto further pages if long).
 */
export function drawCover(doc: Pdf, d: ClientDocumentView, what: { label: string; asOf: string }) {
  doc.addPage();
  const band = accent(d.branding.accentColour);
  const onBand = lightTextOn(band) ? '#ffffff' : '#111827';
  doc.rect(0, 0, PAGE.width, 150).fill(band);
  type(doc, 'bold', 22, onBand).text(d.branding.logoText || d.studioName, PAGE.left, 58, {
    width: CONTENT_WIDTH,
    height: 60,
    ellipsis: true,
  });
  if (d.branding.logoText && d.branding.logoText !== d.studioName) {
    type(doc, 'regular', 11, onBand).text(d.studioName, PAGE.left, 92, { width: CONTENT_WIDTH, lineBreak: false });
  }

  doc.y = 230;
  type(doc, 'regular', 11, MUTED).text(what.label.toUpperCase(), PAGE.left, doc.y);
  doc.moveDown(0.4);
  type(doc, 'bold', 30).text(d.title, { width: CONTENT_WIDTH, height: 150, ellipsis: true });
  if (d.title !== d.projectName) {
    doc.moveDown(0.2);
    type(doc, 'regular', 14, MUTED).text(d.projectName, { width: CONTENT_WIDTH });
  }
  doc.moveDown(1);
  type(doc, 'regular', 11, MUTED).text(what.asOf, { width: CONTENT_WIDTH });
  const count = `${d.totals.pieceCount} ${d.totals.pieceCount === 1 ? 'piece' : 'pieces'}`;
  const total = d.totals.total ? ` · Total ${moneyText(d.totals.total.amount4, d.currency)}` : '';
  type(doc, 'regular', 11, MUTED).text(`${count}${total}`, { width: CONTENT_WIDTH });

  if (d.introduction.trim()) {
    doc.moveDown(2.5);
    type(doc, 'regular', 11).text(d.introduction, { width: CONTENT_WIDTH, lineGap: 3, paragraphGap: 6 });
  }
}
