import type { PhotographType } from '../../../db/vocabulary.js';
import { nowIso } from '../../core/ids.js';
import { recordDocument } from './documents.js';
import { fileNameFor } from './formats.js';
import { writeExport } from './generate.js';
import { measurePackage, type PackageEntry, recordPackageEntries } from './package-stream.js';
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
      .select(['blob_sha256', 'byte_size', 'filename', 'format', 'created_at'])
      .where('project_id', '=', projectId)
      .where('archived_at', 'is', null)
      // A purchase order carries trade prices, and a package is what the studio hands a client: it stays out.
      .where('kind', 'not in', ['project_package', 'purchase_order'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    // Photographs of the pieces the client document shows (active lines of active sections), in schedule order.
    const photographs = await ctx.db
      .selectFrom('line_photographs as p')
      .innerJoin('lines as l', 'l.id', 'p.line_id')
      .innerJoin('sections as s', 's.id', 'l.section_id')
      .select(['p.original_sha256', 'p.byte_size', 'p.media_type', 'l.code', 'l.heading', 's.title'])
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

/** The package's entries: the export made for it first, then the documents, then the photographs by section and piece. */
function entriesOf(
  title: string,
  exported: { sha256: string; size: number },
  contents: Awaited<ReturnType<typeof packageContents>>,
): PackageEntry[] {
  const taken = new Set<string>();
  const entries: PackageEntry[] = [
    { path: unique(taken, `${slug(title)}-client-schedule.xlsx`), sha256: exported.sha256, size: exported.size },
  ];
  for (const d of contents.documents) {
    entries.push({ path: unique(taken, `documents/${d.filename}`), sha256: d.blob_sha256, size: Number(d.byte_size) });
  }
  const perPiece = new Map<string, number>();
  for (const p of contents.photographs) {
    const piece = `${slug(p.title)}/${slug(`${p.code ?? ''} ${p.heading}`)}`;
    const n = (perPiece.get(piece) ?? 0) + 1;
    perPiece.set(piece, n);
    const path = unique(taken, `photographs/${piece}-${n}.${EXTENSIONS[p.media_type]}`);
    entries.push({ path, sha256: p.original_sha256, size: Number(p.byte_size) });
  }
  return entries;
}

/** The entries whose files the blob store keeps, each held now so a sweep leaves it (see BlobStore.hold). */
async function held(work: DocumentWork, entries: readonly PackageEntry[]): Promise<PackageEntry[]> {
  const kept: PackageEntry[] = [];
  for (const e of entries) if (await work.files.hold(e.sha256)) kept.push(e);
  return kept;
}

/**
 * create_project_package's work: one ZIP of the project's documents (not archived ones, not earlier packages), its
 * client schedule export made now (XLSX), and the originals of its pieces' photographs, byte-exact, by section and
 * piece. Nothing is copied: the package is recorded as its list of entries (each a file the blob store already keeps,
 * by digest), and the ZIP is written from them each time it is downloaded or sent (package-stream.ts), so three
 * packages of the same photographs add only their three small exports to storage. The ZIP is read through once here,
 * kept nowhere, for the digest and length its record states. Each entry is held in the blob store first (a sweep
 * leaves it); an original missing from the blob store is left out rather than failing the package.
 */
export async function createProjectPackage(work: DocumentWork, req: { projectId: string }) {
  const contents = await packageContents(work, req.projectId);
  const title = contents.rendered.document.title;
  const exported = await writeExport(work, contents.rendered, 'xlsx');
  const entries = await held(work, entriesOf(title, exported, contents));
  const madeAt = nowIso();
  const zip = await measurePackage(work.files, entries, madeAt);
  await work.progress?.(entries.length, entries.length);
  // Held again just before the record names them: measuring a large package may outlast a sweep's grace period.
  if ((await held(work, entries)).length !== entries.length) {
    throw new Error('A file of the package was removed while it was being made; make the package again.');
  }
  return work.commit(async (ctx) => {
    const doc = await recordDocument(ctx, {
      projectId: req.projectId,
      kind: 'project_package',
      format: 'zip',
      source: { kind: 'live' },
      title: `${title} – Project package`,
      filename: fileNameFor(`${title} package`, 'zip'),
      sha256: zip.sha256,
      byteSize: zip.size,
      pageCount: null,
      createdAt: madeAt,
    });
    await recordPackageEntries(ctx.db, doc.id, entries);
    return doc;
  });
}
