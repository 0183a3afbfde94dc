import type { Readable } from 'node:stream';
import { ServiceError } from '../core/errors.js';
import type { BlobStore } from './blob-store.js';

/** Larger than any document a project makes (a 450-piece schedule with photographs is tens of megabytes). */
export const DOCUMENT_LIMIT = 8 * 1024 ** 3;

const tooLarge = () =>
  new ServiceError('PAYLOAD_TOO_LARGE', 'The file grew past 8 GiB; make it from fewer pieces or photographs.');

/**
 * Keeps what `source` streams in the blob store while `produce` writes it: the bytes go to a staged file as they are
 * made, hashed on the way, and are never held whole in memory. `produce` ends the stream when it is done; if it
 * throws, the stream is destroyed and the staged file removed. Returns the kept file's address and size.
 */
export async function streamToBlob<S extends Readable>(
  files: BlobStore,
  source: S,
  produce: (source: S) => Promise<void>,
): Promise<{ sha256: string; size: number }> {
  const staging = files.stage(source, DOCUMENT_LIMIT, tooLarge);
  try {
    await produce(source);
  } catch (err) {
    source.destroy(err instanceof Error ? err : new Error(String(err)));
    await staging.catch(() => undefined);
    throw err;
  }
  const staged = await staging;
  await files.keep(staged);
  return { sha256: staged.sha256, size: staged.size };
}

/**
 * Waits while `source` holds more than `limit` bytes nobody has read yet: producers that push without backpressure
 * (pdfkit) call it between units of work, so a slow disk never lets a document pile up in memory.
 */
export async function drained(source: Readable, limit = 4 * 1024 * 1024): Promise<void> {
  while (source.readableLength > limit && !source.destroyed) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
