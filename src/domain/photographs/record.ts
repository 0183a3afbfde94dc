import { z } from 'zod';
import { PHOTOGRAPH_TYPES } from '../../../db/vocabulary.js';
import { Id, Timestamp } from '../../core/values.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';

const Pixels = z.int().min(1);
const Sized = z.strictObject({
  width: Pixels,
  height: Pixels,
  url: z.string().describe('GET it (with your token) for the bytes; relative to the server, cacheable for ever.'),
});

/**
 * A photograph on a schedule line; its bytes are in the blob store (014_line_photographs.ts). It has no version of
 * its own: photographs are part of their line, and a change to them moves the line's version (`lineVersion`). The
 * cover, the sizes it is served in and the line's version are worked out beside the row.
 */
export const PHOTOGRAPH_RECORD = defineRecord({
  name: 'Photograph',
  description: 'A photograph on a schedule line, with the sizes it is served in.',
  table: 'line_photographs',
  owner: 'project',
  archivable: { key: 'removedAt' },
  archivedMeans: 'Set when removed; removed photographs are kept but no longer listed.',
  versioned: false,
  fields: {
    studioId: field(Id, { hidden: true }),
    projectId: field(Id, { owner: true }),
    lineId: field(Id),
    position: field(z.int().min(1).describe("1-based place in the line's display order.")),
    /** 0 or 1; at most one per line among those not removed (`cover` answers the line's cover, marked or first). */
    isCover: field(z.int(), { hidden: true }),
    filename: field(z.string()),
    mediaType: field(z.enum(PHOTOGRAPH_TYPES).describe("The original's type, read from its bytes.")),
    byteSize: field(z.int().min(1).describe("The original's size in bytes.")),
    sha256: field(z.string().describe("SHA-256 of the original's bytes, kept byte-exact."), {
      column: 'original_sha256',
    }),
    /** The upright original's pixels (EXIF orientation applied, before `rotation`). */
    width: field(Pixels.describe('Upright original width in pixels (its EXIF orientation applied).')),
    height: field(Pixels.describe('Upright original height in pixels.')),
    /** Clockwise degrees the studio turned it: 0, 90, 180 or 270. */
    rotation: field(
      z.int().describe('Clockwise degrees the studio turned it (0, 90, 180, 270); the original is untouched.'),
    ),
    updatedAt: field(Timestamp),
  },
  computed: {
    cover: z.boolean().describe("The line's cover: the one marked with set_line_cover_photograph, else the first."),
    variants: z
      .strictObject({ display: Sized, thumbnail: Sized, original: Sized })
      .describe(
        'display: upright JPEG, long edge at most 1,568 px and under 1 MB, no metadata (no GPS or camera data); thumbnail: 320 px; original: the bytes as uploaded.',
      ),
    lineVersion: z.int().min(1).describe("The line's version after this read or change (its If-Match for the next)."),
  },
  // The published order, which predates this declaration: the cover beside the place, updatedAt with the stamps.
  after: { cover: 'position', updatedAt: 'createdAt' },
});

export type PhotographRow = TableOf<typeof PHOTOGRAPH_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    line_photographs: PhotographRow;
  }
}
