import type { FrozenPhotograph } from '../../client-document/photographs.js';
import type { Pdf } from '../../../files/pdf-kit.js';
import { drained } from '../../../files/stream-to-blob.js';
import { dateText, moneyText } from '../figures.js';
import { type Piece, pieceFacts, priceWords, quantityWithUnit, wordsOf } from '../piece-facts.js';
import { ROUNDING_NOTE } from './cover.js';
import type { ClientDocumentView } from '../sources.js';
import { accent, CONTENT_WIDTH, ensureSpace, MUTED, PAGE, RULE, rule, type } from './layout.js';
import type { PhotoFiles } from './photos.js';
import { specificationRows } from '../../specifications/client-text.js';

const THUMB = 64;
const GAP = 12;
/** The schedule shows a description's first lines; its spec sheet page shows the rest. */
const DESCRIPTION_MAX = 60;

/** What drawing pieces needs besides the document: their photographs' files, and a tick per piece drawn. */
export interface PieceArt {
  photos: PhotoFiles;
  /** Each photograph a document shows, by id (pieces carry ids; the sources carry the bytes' address). */
  photographById: ReadonlyMap<string, FrozenPhotograph>;
  tick: () => Promise<void>;
}

/** Draws a photograph fitted in a box, or a quiet placeholder when its file is missing. */
export async function drawPhotograph(
  doc: Pdf,
  art: PieceArt,
  id: string,
  box: { x: number; y: number; w: number; h: number },
) {
  const source = art.photographById.get(id);
  const path = source ? await art.photos.path(source) : undefined;
  if (path) {
    doc.image(path, box.x, box.y, { fit: [box.w, box.h], align: 'center', valign: 'center' });
  } else {
    doc.rect(box.x, box.y, box.w, box.h).fill('#f3f4f6');
  }
}

/** The text column of a piece's row: its parts, and how tall they stand at this width. */
function pieceText(doc: Pdf, piece: Piece, d: ClientDocumentView, width: number) {
  const facts = pieceFacts(piece, d)
    .map(([k, v]) => `${k}: ${v}`)
    .join('   ·   ');
  // The client-visible fields of its specifications, one line each; the spec sheet page shows them in full.
  const specs = (piece.specifications ?? [])
    .map((spec) => [spec.name, ...specificationRows(spec).map(([k, v]) => `${k}: ${v}`)].join('   ·   '))
    .join('\n');
  const parts = [
    piece.reference ? { font: 'bold' as const, size: 8, colour: MUTED, text: piece.reference, max: 12 } : undefined,
    { font: 'bold' as const, size: 11, colour: undefined, text: piece.heading || '(untitled piece)', max: 42 },
    piece.description
      ? { font: 'regular' as const, size: 9, colour: undefined, text: piece.description, max: DESCRIPTION_MAX }
      : undefined,
    facts ? { font: 'regular' as const, size: 8.5, colour: MUTED, text: facts, max: 36 } : undefined,
    specs ? { font: 'regular' as const, size: 8, colour: MUTED, text: specs, max: 48 } : undefined,
  ].filter((p) => p !== undefined);
  const heights = parts.map((p) => {
    type(doc, p.font, p.size);
    return Math.min(doc.heightOfString(p.text, { width }), p.max);
  });
  return { parts, heights, height: heights.reduce((a, b) => a + b + 2, 0) };
}

/** One piece as a row: thumbnail, reference, heading, description and facts, then quantity and price on the right. */
async function drawPiece(doc: Pdf, piece: Piece, d: ClientDocumentView, art: PieceArt, sectionTitle: string) {
  // Only a piece with a photograph keeps the thumbnail's column: no empty gutter beside the others.
  const withPhotos = piece.photographs.length > 0;
  const textX = PAGE.left + (withPhotos ? THUMB + GAP : 0);
  const priceWidth = 128;
  const textWidth = CONTENT_WIDTH - (textX - PAGE.left) - priceWidth - GAP;
  const text = pieceText(doc, piece, d, textWidth);
  const height = Math.max(text.height, piece.photographs.length ? THUMB : 0, 40) + 14;
  if (ensureSpace(doc, height)) sectionHeading(doc, `${sectionTitle} (continued)`, d);
  const top = doc.y + 6;

  if (withPhotos && piece.photographs[0]) {
    await drawPhotograph(doc, art, piece.photographs[0].id, { x: PAGE.left, y: top, w: THUMB, h: THUMB });
  }
  let y = top;
  text.parts.forEach((p, i) => {
    type(doc, p.font, p.size, p.colour).text(p.text, textX, y, {
      width: textWidth,
      height: text.heights[i],
      ellipsis: true,
    });
    y += text.heights[i]! + 2;
  });

  const priceX = PAGE.width - PAGE.right - priceWidth;
  const right = { width: priceWidth, align: 'right' as const };
  type(doc, 'regular', 9, MUTED).text(quantityWithUnit(piece, d), priceX, top, right);
  const price = priceWords(piece, d.currency);
  if (price?.state !== undefined) {
    type(doc, 'bold', 10).text(price.state, priceX, top + 14, right);
  } else if (price) {
    type(doc, 'regular', 8.5, MUTED).text(`Unit price ${price.unit}`, priceX, top + 14, right);
    type(doc, 'bold', 11).text(price.total ?? '', priceX, top + 27, right);
  }
  doc.y = top + height - 6;
  rule(doc);
}

function sectionHeading(doc: Pdf, title: string, d: ClientDocumentView) {
  ensureSpace(doc, 80);
  doc.moveDown(0.6);
  type(doc, 'bold', 14, accent(d.branding.accentColour)).text(title, PAGE.left, doc.y, { width: CONTENT_WIDTH });
  doc.moveDown(0.2);
  rule(doc);
}

/** The schedule: each section's pieces as rows with the section's total, then the totals, then removed pieces. */
export async function drawSchedule(doc: Pdf, d: ClientDocumentView, art: PieceArt) {
  doc.addPage();
  type(doc, 'bold', 20).text('Schedule', PAGE.left, PAGE.top, { width: CONTENT_WIDTH });
  for (const section of d.sections) {
    sectionHeading(doc, section.title, d);
    for (const piece of section.pieces) {
      await drawPiece(doc, piece, d, art, section.title);
      await art.tick();
      await drained(doc);
    }
    if (section.total) {
      ensureSpace(doc, 24);
      doc.moveDown(0.4);
      type(doc, 'bold', 10).text(
        `${section.title} total  ${moneyText(section.total.amount4, d.currency)}`,
        PAGE.left,
        doc.y,
        {
          width: CONTENT_WIDTH,
          align: 'right',
        },
      );
    }
  }
  drawTotals(doc, d);
  drawRemoved(doc, d);
}

function drawTotals(doc: Pdf, d: ClientDocumentView) {
  ensureSpace(doc, 110);
  doc.moveDown(1.2);
  doc.rect(PAGE.left, doc.y, CONTENT_WIDTH, 1.5).fill(accent(d.branding.accentColour));
  doc.moveDown(0.6);
  type(doc, 'bold', 14).text('Totals', PAGE.left, doc.y, { width: CONTENT_WIDTH });
  doc.moveDown(0.3);
  const words = wordsOf(d);
  type(doc, 'regular', 10).text(words.count(d.totals.pieceCount, 'piece'), { width: CONTENT_WIDTH });
  if (d.totals.total) {
    type(doc, 'bold', 16).text(`Total ${moneyText(d.totals.total.amount4, d.currency)}`, {
      width: CONTENT_WIDTH,
      align: 'right',
    });
    const toConfirm = d.totals.piecesToConfirm ?? 0;
    if (toConfirm > 0) {
      type(doc, 'regular', 9, MUTED).text(
        `${words.count(toConfirm, 'piece is', 'pieces are')} to be confirmed or priced on application, and not in the total.`,
        { width: CONTENT_WIDTH, align: 'right' },
      );
    }
    doc.moveDown(0.6);
    type(doc, 'regular', 8.5, MUTED).text(ROUNDING_NOTE, PAGE.left, doc.y, { width: CONTENT_WIDTH, align: 'right' });
  }
}

function drawRemoved(doc: Pdf, d: ClientDocumentView) {
  if (!d.removedPieces.length) return;
  ensureSpace(doc, 80);
  doc.moveDown(1.5);
  type(doc, 'bold', 14).text('Removed from the schedule', PAGE.left, doc.y, { width: CONTENT_WIDTH });
  doc.moveDown(0.3);
  for (const removed of d.removedPieces) {
    ensureSpace(doc, 18);
    const y = doc.y;
    type(doc, 'regular', 9, MUTED).text(removed.reference ?? '', PAGE.left, y, { width: 70, lineBreak: false });
    type(doc, 'regular', 9).text(removed.heading, PAGE.left + 76, y, {
      width: CONTENT_WIDTH - 76 - 150,
      height: 12,
      ellipsis: true,
      lineBreak: false,
    });
    type(doc, 'regular', 9, MUTED).text(`Removed ${dateText(removed.removedAt)}`, PAGE.left, y, {
      width: CONTENT_WIDTH,
      align: 'right',
      lineBreak: false,
    });
    doc.y = y + 15;
    doc.strokeColor(RULE);
  }
}
