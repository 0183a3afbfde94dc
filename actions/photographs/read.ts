import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as photographs from '../../src/domain/photographs/photographs.js';
import { EXAMPLE } from '../projects/shapes.js';
import { LineId, PhotographId, ProjectId } from '../shared/refs.js';
import { pageQuery } from '../shared/queries.js';
import { openVariant, SERVED_VARIANTS, type ServedVariant } from '../../src/domain/photographs/variants.js';
import { LinePhotographs, Photograph } from './records.js';

/** Fake ids for examples: the shape the API mints, no meaning. */
export const PHOTO_EX = { lineId: '0000000000000000000000000b', photographId: '0000000000000000000000000f' } as const;
export const inLine = { projectId: ProjectId, lineId: LineId };

export const listLinePhotographs = defineAction({
  name: 'list_line_photographs',
  kind: 'procedure',
  effect: 'query',
  domain: 'photographs',
  summary: "List a line's photographs in display order, with the line's version.",
  description:
    "The line's photographs in display order (removed ones left out; sort, cursor and limit page them like any list), each with its size, rotation, whether it is the cover, and the URLs of its display, thumbnail and original bytes; with the line's version, which reorder_line_photographs and remove_line_photograph send. get_line_photograph shows one photograph (over MCP, as an image).",
  intents: ['which photos does this piece have', "show an item's pictures", "list a line's images"],
  scope: 'projects:read',
  input: z.strictObject({
    ...inLine,
    sort: z.enum(photographs.PHOTOGRAPH_SORT_NAMES).optional().describe('Default: position (display order).'),
    ...pageQuery(),
  }),
  output: LinePhotographs,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, lineId: PHOTO_EX.lineId },
  handler: (ctx, input) => photographs.listPhotographs(ctx, input),
});

export const getLinePhotograph = defineAction({
  name: 'get_line_photograph',
  kind: 'procedure',
  effect: 'query',
  domain: 'photographs',
  summary: 'Read one photograph of a line: its record, and over MCP the picture itself.',
  description:
    'The photograph record: filename, type, upright size, rotation, cover, and the URLs of its sizes. Over MCP the result also carries the display size as image content (upright, at most 1,568 px on its long edge, under 1 MB, without GPS or camera metadata), so you can look at the product. Removed photographs answer NOT_FOUND.',
  intents: ['show me the picture of the sofa', 'look at a photo', "see an item's image"],
  scope: 'projects:read',
  input: z.strictObject({ ...inLine, photographId: PhotographId }),
  output: Photograph,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, lineId: PHOTO_EX.lineId, photographId: PHOTO_EX.photographId },
  media: {
    query: 'variant',
    choices: SERVED_VARIANTS,
    tagQuery: 'tag',
    mcpImage: 'display',
    open: (files, output, choice) => {
      const p = output as z.output<typeof Photograph>;
      const bytes = { sha256: p.sha256, mediaType: p.mediaType, byteSize: p.byteSize, rotation: p.rotation };
      return openVariant(files, bytes, choice as ServedVariant);
    },
  },
  handler: (ctx, input) => photographs.getPhotograph(ctx, input),
});
