import { access } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { PhotographType } from '../../../db/vocabulary.js';
import { streamToBlob } from '../../files/stream-to-blob.js';
import { recordDocument } from './documents.js';
import { fileNameFor } from './formats.js';
import { writeExport } from './generate.js';
import { loadRenderSource } from './sources.js';
import { type DocumentWork, readNow } from './work.js';

const EXTENSIONS: Record<PhotographType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/avif': 'avif',
};

/** A name not used yet in the archive: `name`, else `name-2`, `name-3` … before the extension. */
function unique(taken: Set<string>, name: string): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > name.lastIndexOf('/') ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${stem}-${n}${ext}`;
  taken.add(candidate);
  return candidate;
}

const slug = (text: string) => fileNameFor(text, 'zip').replace(/\.zip$/, '');

/** What a package holds, read in one snapshot: the live client document, the documents, the photographs' originals. */
async function packageContents(work: DocumentWork, projectId: string) {
  return readNow(work, async (ctx) => {
    const rendered = await loadRenderSource(ctx, projectId, { kind: 'live' });
    const documents = await ctx.db
      .selectFrom('documents')
      .select(['blob_sha256', 'filename', 'format', 'created_at'])
      .where('project_id', '=', projectId)
      .where('archived_at', 'is', null)
      .where('kind', '!=', 'project_package')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    // Photographs of the pieces the client document shows (active lines of active sections), in schedule order.
    const photographs = await ctx.db
      .selectFrom('line_photographs as p')
      .innerJoin('lines as l', 'l.id', 'p.line_id')
      .innerJoin('sections as s', 's.id', 'l.section_id')
      .select(['p.original_sha256', 'p.media_type', 'l.code', 'l.heading', 's.title'])
      .where('p.project_id', '=', projectId)
      .where('p.removed_at', 'is', null)
      .where('l.archived_at', 'is', null)
      .where('s.archived_at', 'is', null)
      .orderBy('s.position')
      .orderBy('l.position')
      .orderBy('l.id')
      .orderBy('p.is_cover', 'desc')
      .orderBy('p.position')
      .orderBy('p.id')
      .execute();
    return { rendered, documents, photographs };
  });
}

/**
 * create_project_package's work: one ZIP of the project's documents (not archived ones, not earlier packages), its
 * client schedule export made now (XLSX), and the originals of its pieces' photographs, byte-exact, by section and
 * piece. Streamed with yazl straight into the blob store, one file at a time from disk: a package of gigabytes never
 * sits in memory. Files already compressed (PDF, XLSX, photographs) are stored, not compressed again. An original
 * missing from the blob store is left out rather than failing the package.
 */
export async function createProjectPackage(work: DocumentWork, req: { projectId: string }) {
  const { rendered, documents, photographs } = await packageContents(work, req.projectId);
  const title = rendered.document.title;
  const exported = await writeExport(work, rendered, 'xlsx');
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  const taken = new Set<string>();
  const present = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );
  const total = documents.length + photographs.length + 1;
  const file = await streamToBlob(work.files, zip.outputStream as Readable, async () => {
    zip.addFile(work.files.originalPath(exported.sha256), unique(taken, `${slug(title)}-client-schedule.xlsx`), {
      compress: false,
    });
    for (const d of documents) {
      const path = work.files.originalPath(d.blob_sha256);
      if (!(await present(path))) continue;
      zip.addFile(path, unique(taken, `documents/${d.filename}`), { compress: d.format === 'csv' });
    }
    const perPiece = new Map<string, number>();
    for (const p of photographs) {
      const path = work.files.originalPath(p.original_sha256);
      if (!(await present(path))) continue;
      const piece = `${slug(p.title)}/${slug(`${p.code ?? ''} ${p.heading}`)}`;
      const n = (perPiece.get(piece) ?? 0) + 1;
      perPiece.set(piece, n);
      zip.addFile(path, unique(taken, `photographs/${piece}-${n}.${EXTENSIONS[p.media_type]}`), { compress: false });
    }
    zip.end();
  });
  await work.progress?.(total, total);
  return work.commit((ctx) =>
    recordDocument(ctx, {
      projectId: req.projectId,
      kind: 'project_package',
      format: 'zip',
      source: { kind: 'live' },
      title: `${title} – Project package`,
      filename: fileNameFor(`${title} package`, 'zip'),
      sha256: file.sha256,
      byteSize: file.size,
      pageCount: null,
    }),
  );
}
