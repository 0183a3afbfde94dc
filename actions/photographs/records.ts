import { z } from 'zod';
import { PHOTOGRAPH_TYPES } from '../../src/files/images.js';
import { Id, named, Timestamp } from '../../src/core/values.js';

const Pixels = z.int().min(1);
const Sized = z.strictObject({
  width: Pixels,
  height: Pixels,
  url: z.string().describe('GET it (with your token) for the bytes; relative to the server, cacheable for ever.'),
});

export const Photograph = z
  .strictObject({
    id: Id,
    projectId: Id,
    lineId: Id,
    position: z.int().min(1).describe("1-based place in the line's display order."),
    cover: z.boolean().describe("The line's cover: the one marked with set_line_cover_photograph, else the first."),
    filename: z.string(),
    mediaType: z.enum(PHOTOGRAPH_TYPES).describe("The original's type, read from its bytes."),
    byteSize: z.int().min(1).describe("The original's size in bytes."),
    sha256: z.string().describe("SHA-256 of the original's bytes, kept byte-exact."),
    width: Pixels.describe('Upright original width in pixels (its EXIF orientation applied).'),
    height: Pixels.describe('Upright original height in pixels.'),
    rotation: z.int().describe('Clockwise degrees the studio turned it (0, 90, 180, 270); the original is untouched.'),
    variants: z
      .strictObject({ display: Sized, thumbnail: Sized, original: Sized })
      .describe(
        'display: upright JPEG, long edge at most 1,568 px and under 1 MB, no metadata (no GPS or camera data); thumbnail: 320 px; original: the bytes as uploaded.',
      ),
    lineVersion: z.int().min(1).describe("The line's version after this read or change (its If-Match for the next)."),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    removedAt: Timestamp.nullable().describe('Set when removed; removed photographs are kept but no longer listed.'),
  })
  .describe('A photograph on a schedule line, with the sizes it is served in.');
named(Photograph, 'Photograph');

export const LinePhotographs = z
  .strictObject({
    lineId: Id,
    version: z
      .int()
      .min(1)
      .describe(
        "The line's version: photographs are part of the line, so reorder and remove send it (If-Match / expectedVersion).",
      ),
    items: z.array(Photograph).describe('In display order unless sorted otherwise; removed photographs are left out.'),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as cursor for the next page; null on the last page (a change answers the whole list).'),
  })
  .describe("A line's photographs in display order, with the line's version.");
named(LinePhotographs, 'LinePhotographs');
