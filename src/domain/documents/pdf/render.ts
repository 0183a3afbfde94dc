import type { BlobStore } from '../../../files/blob-store.js';
import { openPdf } from '../../../files/pdf-kit.js';
import { streamToBlob } from '../../../files/stream-to-blob.js';
import type { FrozenPhotograph } from '../../client-document/photographs.js';
import { dateText } from '../figures.js';
import type { RenderSource } from '../sources.js';
import { drawCover } from './cover.js';
import { stampFooters } from './footer.js';
import { PhotoFiles } from './photos.js';
import { drawSchedule } from './schedule.js';
import { drawSpecSheets, specSheetWorthy } from './spec-sheet.js';

/** The PDFs a project's client document renders as. */
export type PdfKind = 'client_schedule' | 'spec_sheets';

export const PDF_LABELS: Record<PdfKind, string> = {
  client_schedule: 'Client schedule',
  spec_sheets: 'Spec sheets',
};

export interface RenderedFile {
  sha256: string;
  size: number;
  pageCount: number | null;
}

export interface PdfRequest {
  kind: PdfKind;
  /** What the cover says the document is as of, e.g. "Version 3, minted 22 November 2026". */
  asOf?: string;
  /** Told after each piece is drawn: `done` of `total` pieces (a client schedule draws each piece twice). */
  progress?: (done: number, total: number) => Promise<void>;
}

/**
 * Renders a client document as a PDF into the blob store, streaming: the cover with the studio's mark, the client's
 * name and the date, then for a client schedule the sections of pieces (photographs, chosen columns, quantities,
 * prices or their state words), section totals, totals and removed pieces, then a spec sheet page for each piece
 * with more to show than its row (photographs, specifications, a long description); every piece's sheet for
 * `spec_sheets`.
 * Every page carries the studio, the title and "Page n of N". Only the client document is read, so the PDF holds
 * exactly what the client may see.
 */
export async function renderClientPdf(files: BlobStore, source: RenderSource, req: PdfRequest): Promise<RenderedFile> {
  const d = source.document;
  const label = PDF_LABELS[req.kind];
  const doc = await openPdf({ title: `${d.title} – ${label}`, author: d.studioName, subject: d.projectName });
  const photographById = new Map<string, FrozenPhotograph>();
  for (const list of Object.values(source.photographs)) for (const p of list) photographById.set(p.id, p);
  const pieces = d.sections.reduce((n, s) => n + s.pieces.length, 0);
  // A client schedule gives a spec sheet page only to the pieces with more to show than their row (specSheetWorthy).
  const only = req.kind === 'client_schedule' ? specSheetWorthy : undefined;
  const sheets = d.sections.reduce((n, s) => n + s.pieces.filter((p) => !only || only(p)).length, 0);
  const total = req.kind === 'client_schedule' ? pieces + sheets : pieces;
  let done = 0;
  const art = {
    photos: new PhotoFiles(files),
    photographById,
    tick: async () => {
      done += 1;
      await req.progress?.(done, total);
    },
  };
  let pageCount = 0;
  const kept = await streamToBlob(files, doc, async () => {
    drawCover(doc, d, {
      label,
      asOf: req.asOf ?? `As of ${dateText(d.piecesAsOf)}`,
      clientName: source.clientName,
      dated: source.dated,
    });
    if (req.kind === 'client_schedule') await drawSchedule(doc, d, art);
    await drawSpecSheets(doc, d, art, only);
    pageCount = stampFooters(doc, `${d.studioName}  ·  ${d.title}`);
    doc.end();
  });
  return { ...kept, pageCount };
}
