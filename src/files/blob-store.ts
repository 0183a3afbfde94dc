import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { ServiceError } from '../core/errors.js';

/** Bytes received and hashed into a temporary file, not yet kept. */
export interface StagedBlob {
  path: string;
  sha256: string;
  size: number;
  /** The file came base64 inside a request body (MCP), so the base64 limits apply to it, not an HTTP upload's. */
  base64?: boolean;
}

/** A file the store keeps: an original (named by its digest) or a derived file (by its maker's name). */
export interface KeptFile {
  kind: 'original' | 'derived';
  name: string;
  path: string;
}

/**
 * Where file bytes live. Originals are content-addressed by SHA-256 and kept byte-exact; derived files (a photograph's
 * display size) are kept under a name their maker chooses, which must say everything they were made from, so neither
 * is ever rewritten in place. This interface is the seam for another store (an object store) to follow.
 */
export interface BlobStore {
  /** Streams `source` into a temporary file, hashing as it goes; past `limit` bytes it stops and refuses (413). */
  stage(source: Readable | AsyncIterable<Uint8Array>, limit: number, tooLarge: () => ServiceError): Promise<StagedBlob>;
  /**
   * Moves a staged file to its content address (over a copy already there: the same bytes), so the kept file's time
   * is now and a sweep leaves it while the record naming it is written (see `sweepable`).
   */
  keep(staged: StagedBlob): Promise<void>;
  /**
   * Marks a kept original as in use now, before a new record names it without keeping it again (a package's entries):
   * a sweep leaves it as it leaves a fresh upload. False when it is not kept (swept, or never kept).
   */
  hold(sha256: string): Promise<boolean>;
  /** Removes a staged file that will not be kept (safe to call twice, or after `keep`). */
  discard(staged: StagedBlob): Promise<void>;
  /** The kept original's path, for reading. */
  originalPath(sha256: string): string;
  derivedPath(name: string): string;
  /** Whether a derived file exists (made earlier, by this or another process). */
  hasDerived(name: string): Promise<boolean>;
  putDerived(name: string, bytes: Buffer): Promise<void>;
  open(path: string): Readable;
  /** Every kept file, original or derived, one at a time (a store of millions is never listed whole). */
  listKept(): AsyncIterable<KeptFile>;
  /**
   * Removes a kept file last written (or held) before `cutoff` (epoch ms), atomically against a `keep` or `hold` of
   * the same file at the same moment: the file is first moved aside, then judged by its time, and put back when it
   * turns out to be fresh. Answers its size when removed, undefined when left.
   */
  removeStale(file: KeptFile, cutoff: number): Promise<number | undefined>;
}

const SHA256 = /^[0-9a-f]{64}$/;
const DERIVED_NAME = /^[0-9a-z][0-9a-z.-]{0,150}$/;

/**
 * The blob store on local disk, under one folder: `originals/ab/<sha256>`, `derived/<name>`, `incoming/` for staged
 * uploads. Every write lands by rename from a temporary file in the same folder tree, so a reader never sees half a
 * file and a crash leaves only `incoming/` debris, which `sweepIncoming` removes at start.
 */
export class DiskBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  private incoming() {
    return join(this.root, 'incoming');
  }

  async stage(
    source: Readable | AsyncIterable<Uint8Array>,
    limit: number,
    tooLarge: () => ServiceError,
  ): Promise<StagedBlob> {
    await mkdir(this.incoming(), { recursive: true });
    const path = join(this.incoming(), `${Date.now()}-${randomBytes(8).toString('hex')}`);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > limit) return done(tooLarge());
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, createWriteStream(path, { flags: 'wx' }));
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
    return { path, sha256: hash.digest('hex'), size };
  }

  async keep(staged: StagedBlob): Promise<void> {
    const target = this.originalPath(staged.sha256);
    await mkdir(join(target, '..'), { recursive: true });
    await rename(staged.path, target);
  }

  async hold(sha256: string): Promise<boolean> {
    const now = new Date();
    return utimes(this.originalPath(sha256), now, now).then(
      () => true,
      () => false,
    );
  }

  async discard(staged: StagedBlob): Promise<void> {
    await rm(staged.path, { force: true });
  }

  originalPath(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`Not a SHA-256 digest: ${sha256}`);
    return join(this.root, 'originals', sha256.slice(0, 2), sha256);
  }

  derivedPath(name: string): string {
    if (!DERIVED_NAME.test(name)) throw new Error(`Not a derived file name: ${name}`);
    return join(this.root, 'derived', name);
  }

  hasDerived(name: string): Promise<boolean> {
    return exists(this.derivedPath(name));
  }

  async putDerived(name: string, bytes: Buffer): Promise<void> {
    const target = this.derivedPath(name);
    await mkdir(join(this.root, 'derived'), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
    await writeFile(temp, bytes, { flag: 'wx' });
    await rename(temp, target);
  }

  open(path: string): Readable {
    return createReadStream(path);
  }

  async *listKept(): AsyncIterable<KeptFile> {
    const originals = join(this.root, 'originals');
    for (const shard of await readdir(originals).catch(() => [] as string[])) {
      for (const name of await readdir(join(originals, shard)).catch(() => [] as string[])) {
        yield { kind: 'original', name, path: join(originals, shard, name) };
      }
    }
    const derived = join(this.root, 'derived');
    for (const name of await readdir(derived).catch(() => [] as string[])) {
      yield { kind: 'derived', name, path: join(derived, name) };
    }
  }

  async removeStale(file: KeptFile, cutoff: number): Promise<number | undefined> {
    // Moved aside first: a `keep` after this lands a new file at the address, which this never touches; a `keep` or
    // `hold` before it made the moved file fresh, and it goes back. Either way a file written for a record survives.
    const aside = `${file.path}.${randomBytes(6).toString('hex')}.sweep`;
    if (
      !(await rename(file.path, aside).then(
        () => true,
        () => false,
      ))
    )
      return undefined;
    const info = await stat(aside);
    if (info.mtimeMs >= cutoff) {
      await rename(aside, file.path);
      return undefined;
    }
    await rm(aside, { force: true });
    return info.size;
  }

  /** Removes staged files older than `olderThanMs`: uploads a crash interrupted before they were kept or dropped. */
  async sweepIncoming(olderThanMs = 60 * 60_000): Promise<void> {
    const names = await readdir(this.incoming()).catch(() => [] as string[]);
    const cutoff = Date.now() - olderThanMs;
    for (const name of names) {
      const path = join(this.incoming(), name);
      const info = await stat(path).catch(() => undefined);
      if (info && info.mtimeMs < cutoff) await rm(path, { force: true });
    }
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
