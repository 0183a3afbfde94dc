import { z } from 'zod';
import { PHOTOGRAPH_RECORD } from '../../src/domain/photographs/record.js';
import { Id, named } from '../../src/core/values.js';

/** A photograph on a line, as PHOTOGRAPH_RECORD declares it. */
export const Photograph = PHOTOGRAPH_RECORD.output;

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
