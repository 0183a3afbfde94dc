import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ServiceError } from '../../core/errors.js';
import {
  damagedWorkbook,
  MAX_UNPACKED_BYTES,
  MAX_ZIP_PARTS,
  tooManyParts,
  UnreadableSpreadsheet,
  unpacksTooLarge,
} from './reading-limits.js';

/**
 * A workbook's ZIP, read from its central directory (so the parts a reader needs are read in the order it needs
 * them, and no part is inflated unless asked for). Every byte inflated, of every part read, counts against one
 * budget (MAX_UNPACKED_BYTES) as it is inflated: a part's declared size is checked first where the whole part will be
 * read, and a part that inflates to more than it declares is a damaged file (yauzl checks), so neither an honest nor
 * a lying size gets past the budget.
 */
export interface WorkbookZip {
  /** Whether the ZIP has a part of that name (names compared as OPC does: without case, without a leading /). */
  has(name: string): boolean;
  /** Part names in the ZIP's order. */
  names(): string[];
  /**
   * The part's bytes as they inflate, in chunks. `whole`: the caller reads it to the end, so a declared size past
   * what is left of the budget is refused before a byte is inflated. Stopping early (a `break`) frees the stream.
   */
  read(name: string, opts?: { whole?: boolean }): AsyncIterable<Buffer>;
}

const key = (name: string) => name.replace(/^\/+/, '').toLowerCase();

export async function openZip(bytes: Buffer): Promise<WorkbookZip> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, z) =>
      err ? reject(damagedWorkbook()) : resolve(z),
    ),
  );
  if (zip.entryCount > MAX_ZIP_PARTS) throw tooManyParts();
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('/') && !entries.has(key(entry.fileName))) entries.set(key(entry.fileName), entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', () => reject(damagedWorkbook()));
    zip.readEntry();
  });

  let unpacked = 0;
  return {
    has: (name) => entries.has(key(name)),
    names: () => [...entries.values()].map((e) => e.fileName),
    async *read(name, opts = {}) {
      const entry = entries.get(key(name));
      if (!entry) throw damagedWorkbook();
      if (opts.whole && entry.uncompressedSize > MAX_UNPACKED_BYTES - unpacked) throw unpacksTooLarge();
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err ? reject(damagedWorkbook()) : resolve(s))),
      );
      try {
        for await (const chunk of stream) {
          unpacked += (chunk as Buffer).length;
          if (unpacked > MAX_UNPACKED_BYTES) throw unpacksTooLarge();
          yield chunk as Buffer;
        }
      } catch (err) {
        // yauzl's own complaints (a part inflating past its declared size, a broken deflate stream) mean damage.
        if (err instanceof ServiceError || err instanceof UnreadableSpreadsheet) throw err;
        throw damagedWorkbook();
      } finally {
        stream.destroy();
      }
    },
  };
}
