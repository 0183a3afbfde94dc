import type { Pdf } from '../../../files/pdf-kit.js';
import { drained } from '../../../files/stream-to-blob.js';
import { type Piece, pieceFacts, priceWords, quantityWithUnit } from '../piece-facts.js';
import type { ClientDocumentView } from '../sources.js';
import { accent, CONTENT_BOTTOM, CONTENT_WIDTH, MUTED, PAGE, rule, type } from './layout.js';
import { drawPhotograph, type PieceArt } from './schedule.js';
import { specificationRows } from '../../specifications/client-text.js';

const MAIN_PHOTO_HEIGHT = 330;
const EXTRA_PHOTOS = 4;
const EXTRA_HEIGHT = 84;

/**
 * One page for one piece: where it sits and its reference, its heading, its cover photograph large with up to four
 * more beneath, its details (quantity, prices, the chosen columns and properties) and its description, cut with an
 * ellipsis where the page ends (a spec sheet is one page by design).
 */
async function drawSpecSheet(doc: Pdf, piece: Piece, sectionTitle: string, d: ClientDocumentView, art: PieceArt) {
  doc.addPage();
  const colour = accent(d.branding.accentColour);
  type(doc, 'regular', 9, MUTED).text(
    [sectionTitle, piece.reference].filter(Boolean).join('  ·  ').toUpperCase(),
    PAGE.left,
    PAGE.top,
    { width: CONTENT_WIDTH, lineBreak: false, height: 12, ellipsis: true },
  );
  doc.moveDown(0.3);
  type(doc, 'bold', 20).text(piece.heading || '(untitled piece)', { width: CONTENT_WIDTH, height: 56, ellipsis: true });
  doc.moveDown(0.4);
  doc.rect(PAGE.left, doc.y, 40, 2).fill(colour);
  doc.moveDown(0.8);

  const [cover, ...more] = piece.photographs;
  if (cover) {
    const top = doc.y;
    await drawPhotograph(doc, art, cover.id, { x: PAGE.left, y: top, w: CONTENT_WIDTH, h: MAIN_PHOTO_HEIGHT });
    doc.y = top + MAIN_PHOTO_HEIGHT + 8;
    const extras = more.slice(0, EXTRA_PHOTOS);
    if (extras.length) {
      const w = (CONTENT_WIDTH - (EXTRA_PHOTOS - 1) * 8) / EXTRA_PHOTOS;
      const y = doc.y;
      for (const [i, p] of extras.entries()) {
        await drawPhotograph(doc, art, p.id, { x: PAGE.left + i * (w + 8), y, w, h: EXTRA_HEIGHT });
      }
      doc.y = y + EXTRA_HEIGHT + 8;
    }
  }

  const details: Array<[string, string]> = [['Quantity', quantityWithUnit(piece, d)]];
  const price = priceWords(piece, d.currency);
  if (price?.state !== undefined) details.push(['Price', price.state]);
  else if (price) details.push(['Unit price', price.unit!], ['Total', price.total!]);
  details.push(...pieceFacts(piece, d));
  for (const spec of piece.specifications ?? []) details.push(['Specification', spec.name], ...specificationRows(spec));
  doc.moveDown(0.4);
  for (const [label, value] of details) {
    if (doc.y + 14 > CONTENT_BOTTOM - 20) break;
    const y = doc.y;
    type(doc, 'regular', 9, MUTED).text(label, PAGE.left, y, { width: 120, height: 12, ellipsis: true });
    type(doc, 'regular', 10).text(value, PAGE.left + 128, y, {
      width: CONTENT_WIDTH - 128,
      height: Math.max(12, CONTENT_BOTTOM - y - 20),
      ellipsis: true,
    });
    doc.y = Math.max(doc.y, y + 14) + 2;
  }
  if (piece.description && doc.y < CONTENT_BOTTOM - 30) {
    doc.moveDown(0.4);
    rule(doc);
    doc.moveDown(0.5);
    type(doc, 'regular', 10).text(piece.description, PAGE.left, doc.y, {
      width: CONTENT_WIDTH,
      height: CONTENT_BOTTOM - doc.y,
      ellipsis: true,
      lineGap: 2,
    });
  }
}

/** A description longer than this is cut on the schedule's row, so its spec sheet page has the rest to show. */
const LONG_DESCRIPTION = 160;

/**
 * Whether a piece has more to show than its schedule row: photographs to see large, specifications in full, or a
 * description the row cuts. The rest would make near-empty pages.
 */
export const specSheetWorthy = (piece: Piece) =>
  piece.photographs.length > 0 ||
  (piece.specifications?.length ?? 0) > 0 ||
  piece.description.length > LONG_DESCRIPTION;

/** A spec sheet page per piece (or per piece `only` accepts), in schedule order. */
export async function drawSpecSheets(doc: Pdf, d: ClientDocumentView, art: PieceArt, only?: (piece: Piece) => boolean) {
  for (const section of d.sections) {
    for (const piece of section.pieces) {
      if (only && !only(piece)) continue;
      await drawSpecSheet(doc, piece, section.title, d, art);
      await art.tick();
      await drained(doc);
    }
  }
}
