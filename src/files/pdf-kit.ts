import { createRequire } from 'node:module';

/**
 * PDF documents with pdfkit. Why pdfkit and not pdf-lib: pdfkit writes a PDF as a stream while it is drawn (each
 * image is written out the moment it is placed), so a schedule of hundreds of pieces with photographs never sits whole
 * in memory; pdf-lib builds the whole file in memory and serialises it at the end. pdfkit also lays out and wraps text,
 * which pdf-lib leaves to its caller.
 *
 * pdfkit is loaded on first use (and kept out of the server bundle, see scripts/bundle.mjs): a stdio MCP server that
 * never makes a PDF does not pay for loading it.
 */

const require = createRequire(import.meta.url);

/**
 * DejaVu Sans, embedded (subset to the glyphs used): the PDF standard fonts cover Western European text only, and a
 * studio's client or supplier names are not always that. Regular and bold.
 */
export const FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
} as const;

export type Pdf = PDFKit.PDFDocument;

/**
 * A new A4 document with the fonts registered as `regular` and `bold`. Pages are buffered (their content streams
 * only: a few kilobytes each, images are already written out) so that page numbers can say "of N" at the end.
 */
export async function openPdf(info: { title: string; author: string; subject: string }): Promise<Pdf> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 64, left: 48, right: 48 },
    bufferPages: true,
    autoFirstPage: false,
    info: { Title: info.title, Author: info.author, Subject: info.subject, Creator: 'studio server' },
    displayTitle: true,
    lang: 'en-GB',
  } as PDFKit.PDFDocumentOptions);
  // Fonts are only ever chosen by these registered names. (Opening the same file also by its path, as the `font`
  // option would, makes pdfkit parse the whole TTF again on every later switch to it: 30 s for 450 pieces.)
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
  doc.font('regular');
  return doc;
}
