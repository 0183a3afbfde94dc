import type { Pdf } from '../../../files/pdf-kit.js';
import { initialsOf } from '../client-words.js';
import { dateText, moneyText } from '../figures.js';
import { wordsOf } from '../piece-facts.js';
import type { ClientDocumentView } from '../sources.js';
import { accent, CONTENT_WIDTH, lightTextOn, MUTED, PAGE, type } from './layout.js';

/** The sentence every priced document carries (the spec: shown unit prices are rounded, totals are not built on them). */
export const ROUNDING_NOTE =
  'Unit prices are rounded for display. Totals are worked out from the unrounded figures, so a quantity times its shown unit price can differ from the total shown by a penny or so.';

export interface CoverFacts {
  /** What the document is: "Client schedule". */
  label: string;
  /** What it is as of: "Version 3, minted 22 November 2026". */
  asOf: string;
  /** The project's client, when it has one. */
  clientName?: string | null | undefined;
  /** When the document was made (RFC 3339). */
  dated?: string | undefined;
}

/** The studio's mark in the band: its logo text when short (or its initials) in a ring, then its name beside it. */
function drawMark(doc: Pdf, d: ClientDocumentView, onBand: string) {
  const logo = d.branding.logoText && d.branding.logoText !== d.studioName ? d.branding.logoText : null;
  const monogram = logo && [...logo].length <= 3 ? logo : initialsOf(d.studioName);
  const cx = PAGE.left + 26;
  const cy = 75;
  doc.circle(cx, cy, 26).lineWidth(1.5).strokeColor(onBand).stroke();
  type(doc, 'bold', 15, onBand).text(monogram, cx - 26, cy - 9, { width: 52, align: 'center', lineBreak: false });
  const x = PAGE.left + 68;
  const width = CONTENT_WIDTH - 68;
  if (logo && [...logo].length > 3) {
    type(doc, 'bold', 20, onBand).text(logo, x, cy - 20, { width, height: 26, ellipsis: true, lineBreak: false });
    type(doc, 'regular', 11, onBand).text(d.studioName, x, cy + 6, { width, lineBreak: false });
  } else {
    type(doc, 'bold', 18, onBand).text(d.studioName, x, cy - 11, {
      width,
      height: 24,
      ellipsis: true,
      lineBreak: false,
    });
  }
}

/**
 * The first page: the studio's band in its accent colour with its mark and name; what the document is, its title, whom
 * it is for and its date; what it is as of; rooms, pieces and total; then the introduction (flowing onto further
 * pages if long) and, when prices show, the note on rounding.
 */
export function drawCover(doc: Pdf, d: ClientDocumentView, what: CoverFacts) {
  doc.addPage();
  const words = wordsOf(d);
  const band = accent(d.branding.accentColour);
  const onBand = lightTextOn(band) ? '#ffffff' : '#111827';
  doc.rect(0, 0, PAGE.width, 150).fill(band);
  drawMark(doc, d, onBand);

  doc.y = 220;
  type(doc, 'regular', 11, MUTED).text(what.label.toUpperCase(), PAGE.left, doc.y, { characterSpacing: 1 });
  doc.moveDown(0.4);
  type(doc, 'bold', 30).text(d.title, { width: CONTENT_WIDTH, height: 150, ellipsis: true });
  // The project's name only when the title does not already say it.
  if (!d.title.toLowerCase().includes(d.projectName.toLowerCase())) {
    doc.moveDown(0.2);
    type(doc, 'regular', 14, MUTED).text(d.projectName, { width: CONTENT_WIDTH });
  }
  doc.moveDown(1.2);
  const facts: Array<[string, string]> = [];
  if (what.clientName) facts.push(['Prepared for', what.clientName]);
  if (what.dated) facts.push(['Date', dateText(what.dated)]);
  facts.push(['Contents', what.asOf]);
  const rooms = `${words.count(d.sections.length, 'room')} · ${words.count(d.totals.pieceCount, 'piece')}`;
  facts.push(['Schedule', rooms]);
  if (d.totals.total) facts.push(['Total', moneyText(d.totals.total.amount4, d.currency)]);
  const toConfirm = d.totals.piecesToConfirm ?? 0;
  if (toConfirm) facts.push(['To be confirmed', words.count(toConfirm, 'piece')]);
  for (const [label, value] of facts) {
    const y = doc.y;
    type(doc, 'regular', 10, MUTED).text(label, PAGE.left, y, { width: 110, lineBreak: false });
    type(doc, label === 'Prepared for' || label === 'Total' ? 'bold' : 'regular', 11).text(value, PAGE.left + 118, y, {
      width: CONTENT_WIDTH - 118,
    });
    doc.y = Math.max(doc.y, y + 14) + 4;
  }

  if (d.introduction.trim()) {
    doc.moveDown(2);
    type(doc, 'regular', 11).text(d.introduction, PAGE.left, doc.y, {
      width: CONTENT_WIDTH,
      lineGap: 3,
      paragraphGap: 6,
    });
  }
  if (d.showPrices) {
    doc.moveDown(1.5);
    type(doc, 'regular', 8.5, MUTED).text(ROUNDING_NOTE, PAGE.left, doc.y, { width: CONTENT_WIDTH });
  }
}
