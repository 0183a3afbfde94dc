import type { Pdf } from '../../../files/pdf-kit.js';
import { CONTENT_WIDTH, MUTED, PAGE, type } from './layout.js';

/**
 * Stamps every page with the studio and title on the left and "Page n of N" on the right, once all pages exist
 * (pages are buffered for it). The bottom margin is lifted while stamping: text placed in it would otherwise make
 * pdfkit start a new page. Returns the page count.
 */
export function stampFooters(doc: Pdf, left: string): number {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - 40;
    type(doc, 'regular', 8, MUTED).text(left, PAGE.left, y, {
      width: CONTENT_WIDTH - 90,
      height: 12,
      ellipsis: true,
      lineBreak: false,
    });
    type(doc, 'regular', 8, MUTED).text(`Page ${i + 1} of ${count}`, PAGE.left, y, {
      width: CONTENT_WIDTH,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = margin;
  }
  return count;
}
