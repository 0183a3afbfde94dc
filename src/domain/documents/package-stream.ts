import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../../db/store.js';
import type { BlobStore } from '../../files/blob-store.js';

/** One file a package packs: its name in the ZIP and the kept file it is, by content address. */
export interface PackageEntry {
  path: string;
  sha256: string;
  size: number;
}

/**
 * The entries' time in the ZIP: the day the package was made, at noon. ZIP stores local wall-clock time, so a server
 * in another time zone (or across a daylight-saving change, which noon never falls in) would write other bytes for
 * the same instant; the UTC day at noon, with no extended timestamp, is the same bytes wherever it is written.
 */
function entryTime(madeAt: string): Date {
  const day = new Date(madeAt);
  return new Date(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 12, 0, 0);
}

/**
 * A package's ZIP, written as it is read: each entry stored (not compressed: photographs, PDFs and workbooks already
 * are), opened only when its turn comes, so memory and open files stay bounded however large the package. The same
 * entries and time always give the same bytes, which is what lets a package be its list of entries: the bytes are made
 * again for every download instead of being kept. A missing or changed file destroys the stream with the error.
 */
export async function packageZip(
  files: BlobStore,
  entries: readonly PackageEntry[],
  madeAt: string,
): Promise<Readable> {
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  const out = new PassThrough();
  const mtime = entryTime(madeAt);
  zip.on('error', (err: Error) => out.destroy(err));
  for (const e of entries) {
    zip.addReadStreamLazy(e.path, { size: e.size, compress: false, mtime, forceDosTimestamp: true }, (cb) => {
      const source = files.open(files.originalPath(e.sha256));
      source.on('error', (err) => out.destroy(err));
      cb(null, source);
    });
  }
  zip.end();
  (zip.outputStream as Readable).pipe(out);
  return out;
}

/** The ZIP's digest and length, read through once and kept nowhere: what the package's record says of its bytes. */
export async function measurePackage(files: BlobStore, entries: readonly PackageEntry[], madeAt: string) {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(await packageZip(files, entries, madeAt), async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) {
      size += chunk.length;
      hash.update(chunk);
    }
  });
  return { sha256: hash.digest('hex'), size };
}

/** A package's entries in order; none for a package made before packages were lists (its ZIP is a kept file). */
export async function packageEntries(db: Db, documentId: string): Promise<PackageEntry[]> {
  const rows = await db
    .selectFrom('package_entries')
    .select(['path', 'blob_sha256', 'byte_size'])
    .where('document_id', '=', documentId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ path: r.path, sha256: r.blob_sha256, size: Number(r.byte_size) }));
}

/** Rows at a time when recording entries: a few hundred bound values per statement, on either store. */
const BATCH = 100;

/** Records a package's entries, in its commit. */
export async function recordPackageEntries(db: Db, documentId: string, entries: readonly PackageEntry[]) {
  for (let at = 0; at < entries.length; at += BATCH) {
    const rows = entries.slice(at, at + BATCH).map((e, i) => ({
      document_id: documentId,
      position: at + i + 1,
      path: e.path,
      blob_sha256: e.sha256,
      byte_size: e.size,
    }));
    await db.insertInto('package_entries').values(rows).execute();
  }
}

/**
 * The bytes of a document as a download or an email sends them: a package's ZIP written from its entries, or the
 * kept file itself.
 */
export async function documentBytes(
  db: Db,
  files: BlobStore,
  doc: { id: string; kind: string; sha256: string; createdAt: string },
): Promise<Readable> {
  const entries = doc.kind === 'project_package' ? await packageEntries(db, doc.id) : [];
  return entries.length ? packageZip(files, entries, doc.createdAt) : files.open(files.originalPath(doc.sha256));
}
