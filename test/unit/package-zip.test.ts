/**
 * A package's ZIP is made again for every download from its entries, so the same entries must give the same bytes
 * whatever the server's time zone or the hour it is written (ZIP stores local wall-clock time), and its length and
 * digest must be those its record states. Property-tested over entry sizes and the moment the package was made.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/core/errors.js';
import { measurePackage, type PackageEntry } from '../../src/domain/documents/package-stream.js';
import { DiskBlobStore } from '../../src/files/blob-store.js';

const dir = mkdtempSync(join(tmpdir(), 'package-zip-'));
const files = new DiskBlobStore(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function kept(size: number): Promise<Omit<PackageEntry, 'path'>> {
  const staged = await files.stage(
    Readable.from([randomBytes(size)]),
    size,
    () => new ServiceError('PAYLOAD_TOO_LARGE'),
  );
  await files.keep(staged);
  return { sha256: staged.sha256, size };
}

/** The package measured with TZ set to `zone` (Node reads TZ again when it changes). */
async function measuredIn(zone: string, entries: PackageEntry[], madeAt: string) {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await measurePackage(files, entries, madeAt);
  } finally {
    process.env.TZ = before;
  }
}

describe("a package's ZIP", () => {
  it('is the same bytes in every time zone, and exactly as long as stored entries make it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 4 }),
        fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }),
        async (sizes, when) => {
          const entries = await Promise.all(sizes.map(async (s, i) => ({ ...(await kept(s)), path: `f/${i}.bin` })));
          const madeAt = when.toISOString();
          const utc = await measuredIn('UTC', entries, madeAt);
          expect(await measuredIn('America/New_York', entries, madeAt)).toEqual(utc);
          expect(await measuredIn('Pacific/Kiritimati', entries, madeAt)).toEqual(utc);
          // Stored entries: 30 + name bytes of local header, the data, a 16-byte descriptor, 46 + name of central
          // directory, and the 22-byte end record.
          const names = entries.reduce((n, e) => n + e.path.length, 0);
          const data = entries.reduce((n, e) => n + e.size, 0);
          expect(utc.size).toBe(data + entries.length * (30 + 16 + 46) + 2 * names + 22);
        },
      ),
      { numRuns: 25 },
    );
  });
});
