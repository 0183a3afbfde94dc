import type { Pdf } from '../../../files/pdf-kit.js';

/** The page's geometry and the document's few type sizes and colours, in points (A4: 595 × 842). */
export const PAGE = { width: 595.28, height: 841.89, left: 48, right: 48, top: 56, bottom: 64 } as const;
export const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;
/** The lowest y content may reach; the footer sits below it. */
export const CONTENT_BOTTOM = PAGE.height - PAGE.bottom;

export const INK = '#1f2937';
export const MUTED = '#6b7280';
export const RULE = '#d1d5db';

/** `#rrggbb` or a fallback: the studio's accent colour as stored is always this shape, but a PDF must never fail on it. */
export const accent = (colour: string) => (/^#[0-9a-f]{6}$/i.test(colour) ? colour : '#374151');

/** Whether text on `colour` reads better white than dark (relative luminance, integer arithmetic). */
export function lightTextOn(colour: string): boolean {
  const hex = accent(colour).slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return 299 * r! + 587 * g! + 114 * b! < 150_000;
}

/** Starts a new page when fewer than `height` points are left on this one; answers whether it did. */
export function ensureSpace(doc: Pdf, height: number): boolean {
  if (doc.y + height <= CONTENT_BOTTOM) return false;
  doc.addPage();
  return true;
}

/** Sets the font and size together (pdfkit keeps them as state; every block says what it uses). */
export function type(doc: Pdf, font: 'regular' | 'bold', size: number, colour = INK): Pdf {
  return doc.font(font).fontSize(size).fillColor(colour);
}

/** A thin horizontal rule across the content at the current y. */
export function rule(doc: Pdf, y = doc.y) {
  doc
    .moveTo(PAGE.left, y)
    .lineTo(PAGE.width - PAGE.right, y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
}
