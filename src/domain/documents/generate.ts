import type { DocumentFormat } from '../../../db/vocabulary.js';
import { type DocumentSource, recordDocument } from './documents.js';
import { dateText } from './figures.js';
import { writeCsv } from './export/csv.js';
import { scheduleTable } from './export/table.js';
import { writeXlsx } from './export/xlsx.js';
import { fileNameFor } from './formats.js';
import { PDF_LABELS, type PdfKind, renderClientPdf } from './pdf/render.js';
import { loadRenderSource, type RenderSource } from './sources.js';
import { type DocumentWork, readNow } from './work.js';
import { ServiceError } from '../../core/errors.js';
import { readClientRevision } from '../estimates/client-revision.js';
import { renderEstimatePdf } from './pdf/estimate.js';

/** What the cover and the record say a source is: "Version 3, minted 22 November 2026". */
function sourceWords(source: DocumentSource, rendered: RenderSource) {
  const on = dateText(rendered.document.piecesAsOf);
  if (source.kind === 'version')
    return { asOf: `Version ${source.number}, minted ${on}`, suffix: ` v${source.number}` };
  if (source.kind === 'share') return { asOf: `As the client's link showed it on ${on}`, suffix: ` link ${on}` };
  return { asOf: `As of ${on}`, suffix: '' };
}

export interface GenerateRequest {
  projectId: string;
  kind: PdfKind;
  /** Default: the live client document. */
  source?: DocumentSource;
}

/**
 * generate_document's work: renders the client document a source names (live, a minted version, or a live share's
 * view) as a client schedule or spec sheets PDF into the blob store, then records it as the project's document. The
 * PDF is drawn from the client document only (see loadRenderSource): no trade price can reach it.
 */
export async function generateDocument(work: DocumentWork, req: GenerateRequest) {
  const source = req.source ?? { kind: 'live' };
  const rendered = await readNow(work, (ctx) => loadRenderSource(ctx, req.projectId, source));
  const words = sourceWords(source, rendered);
  const file = await renderClientPdf(work.files, rendered, {
    kind: req.kind,
    asOf: words.asOf,
    progress: work.progress ? (done, total) => work.progress!(done, total) : undefined,
  });
  const title = `${rendered.document.title} – ${PDF_LABELS[req.kind]}`;
  return work.commit((ctx) =>
    recordDocument(ctx, {
      projectId: req.projectId,
      kind: req.kind,
      format: 'pdf',
      source,
      title,
      filename: fileNameFor(`${rendered.document.title} ${PDF_LABELS[req.kind]}${words.suffix}`, 'pdf'),
      sha256: file.sha256,
      byteSize: file.size,
      pageCount: file.pageCount,
    }),
  );
}

/** retain_client_link_pdf's work: what a live share's link shows now, kept as a client schedule PDF. */
export const retainClientLinkPdf = (work: DocumentWork, req: { projectId: string; shareId: string }) =>
  generateDocument(work, {
    projectId: req.projectId,
    kind: 'client_schedule',
    source: { kind: 'share', shareId: req.shareId },
  });

export interface ExportRequest {
  projectId: string;
  format: Extract<DocumentFormat, 'xlsx' | 'csv'>;
  /** Default: the live client document. */
  source?: DocumentSource;
}

/** Writes the client schedule's table (exact amounts) as XLSX or CSV into the blob store. */
export async function writeExport(work: Pick<DocumentWork, 'files'>, rendered: RenderSource, format: 'xlsx' | 'csv') {
  const table = scheduleTable(rendered.document);
  return format === 'xlsx' ? writeXlsx(work.files, table, rendered.document.title) : writeCsv(work.files, table);
}

/** export_client_schedule's work: the client schedule as a spreadsheet, recorded as a client_export document. */
export async function exportClientSchedule(work: DocumentWork, req: ExportRequest) {
  const source = req.source ?? { kind: 'live' };
  const rendered = await readNow(work, (ctx) => loadRenderSource(ctx, req.projectId, source));
  const file = await writeExport(work, rendered, req.format);
  const words = sourceWords(source, rendered);
  return work.commit((ctx) =>
    recordDocument(ctx, {
      projectId: req.projectId,
      kind: 'client_export',
      format: req.format,
      source,
      title: `${rendered.document.title} – Client schedule export`,
      filename: fileNameFor(`${rendered.document.title} client schedule${words.suffix}`, req.format),
      sha256: file.sha256,
      byteSize: file.size,
      pageCount: null,
    }),
  );
}

export interface EstimateDocumentRequest {
  projectId: string;
  revisionId: string;
}

/**
 * generate_document's estimate: one estimate revision rendered from its client projection (what the client sees:
 * client prices, tax, totals, deposit, terms; nothing of the studio's own), recorded as the project's document.
 */
export async function generateEstimateDocument(work: DocumentWork, req: EstimateDocumentRequest) {
  const revision = await readNow(work, (ctx) => readClientRevision(ctx.db, req.revisionId, ctx.now));
  if (!revision) throw new ServiceError('NOT_FOUND', `No estimate revision ${req.revisionId} exists in this project.`);
  const file = await renderEstimatePdf(work.files, revision);
  const label = `Estimate ${revision.estimateNumber} revision ${revision.revisionNumber}`;
  return work.commit((ctx) =>
    recordDocument(ctx, {
      projectId: req.projectId,
      kind: 'estimate',
      format: 'pdf',
      source: { kind: 'estimate_revision', revisionId: req.revisionId },
      title: `${revision.title} – ${label}`,
      filename: fileNameFor(`${revision.title} ${label}`, 'pdf'),
      sha256: file.sha256,
      byteSize: file.size,
      pageCount: file.pageCount,
    }),
  );
}
