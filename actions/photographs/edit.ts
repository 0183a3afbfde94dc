import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as photographs from '../../src/domain/photographs/photographs.js';
import { preparePhotograph, type PreparedPhotograph } from '../../src/domain/photographs/upload.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { LINE } from '../../src/domain/schedule/entity.js';
import { EXAMPLE } from '../projects/shapes.js';
import { PhotographId } from '../shared/refs.js';
import { PHOTO_EX, inLine } from './read.js';
import { LinePhotographs, Photograph } from './records.js';

/** 24 MiB decoded is 32 MiB of base64, and a data: URL prefix. */
const BASE64_MAX_CHARS = 32 * 1024 * 1024 + 128;

const IMAGE_ERRORS = ['UNSUPPORTED_MEDIA_TYPE', 'IMAGE_TOO_LARGE', 'IMAGE_UNREADABLE'] as const;

export const addLinePhotograph = defineAction({
  name: 'add_line_photograph',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'photographs',
  summary: 'Add a photograph to a line (the file base64, with its type and filename).',
  description:
    "Adds a photograph last in the line's order. Send the file base64 in data (up to 24 MiB decoded; tRPC requests are limited to 1 MiB, so larger files go through MCP or the HTTP upload, POST /v1/projects/{projectId}/items/{itemId}/photographs), its mediaType as the file says (image/jpeg, image/png, image/webp, image/heic or image/avif) and its filename. The type is read from the bytes: a disagreeing or other type is UNSUPPORTED_MEDIA_TYPE, a damaged file IMAGE_UNREADABLE, more than 100 megapixels IMAGE_TOO_LARGE. The original is kept byte-exact; the sizes served are upright and carry no GPS or camera metadata. Send a fresh commandKey so a retry never adds it twice.",
  intents: ['attach a picture to an item', 'upload a photo of the sofa', 'add an image to a piece'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({
    ...inLine,
    data: z.string().max(BASE64_MAX_CHARS).describe('The file, base64.'),
    mediaType: z.string().min(1).max(100).describe('e.g. image/jpeg.'),
    filename: z.string().max(500).optional().describe('e.g. "sofa-front.jpg".'),
  }),
  output: Photograph,
  errors: ['NOT_FOUND', 'ARCHIVED', ...IMAGE_ERRORS, 'STORAGE_QUOTA_EXCEEDED'],
  example: {
    projectId: EXAMPLE.projectId,
    lineId: PHOTO_EX.lineId,
    data: '/9j/4AAQSkZJRgABAQ…',
    mediaType: 'image/jpeg',
    filename: 'sofa-front.jpg',
    commandKey: '2f8c1d7e-5a4b-4c3d-9e2f-1a0b9c8d7e6f',
  },
  prepare: (env, input, upload) => preparePhotograph(env, input, upload),
  handler: (ctx, input) => photographs.addPhotograph(ctx, input, ctx.prepared as PreparedPhotograph),
});

const onePhotograph = { ...inLine, photographId: PhotographId };
const lineVersioned = { entity: LINE, idField: 'lineId' } as const;

export const removeLinePhotograph = defineAction({
  name: 'remove_line_photograph',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'photographs',
  summary: 'Remove a photograph from a line (with the line version).',
  description:
    "Takes the photograph off the line, with the line's expectedVersion (list_line_photographs gives it): it is no longer listed, the others close up, and a client document minted earlier keeps showing it. Returns the line's photographs at the line's new version.",
  intents: ['delete a photo', 'take a picture off an item', 'remove an image'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: lineVersioned,
  input: z.strictObject(onePhotograph),
  output: LinePhotographs,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    lineId: PHOTO_EX.lineId,
    photographId: PHOTO_EX.photographId,
    expectedVersion: 5,
  },
  handler: (ctx, input) => photographs.removePhotograph(ctx, input),
});

export const reorderLinePhotographs = defineAction({
  name: 'reorder_line_photographs',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'photographs',
  summary: "Put a line's photographs in a new display order (with the line version).",
  description:
    "Sets the display order: order names every photograph of the line exactly once, first to last (list_line_photographs gives them and the line's expectedVersion). The cover stays as marked. Returns the photographs in their new order; the same order again changes nothing.",
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: lineVersioned,
  input: z.strictObject({
    ...inLine,
    order: z.array(PhotographId).min(1).max(100).describe('Every photograph id of the line, in the new order.'),
  }),
  output: LinePhotographs,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    lineId: PHOTO_EX.lineId,
    order: [PHOTO_EX.photographId, '0000000000000000000000000g'],
    expectedVersion: 5,
  },
  handler: (ctx, input) => photographs.reorderPhotographs(ctx, input),
});

export const setLineCoverPhotograph = defineAction({
  name: 'set_line_cover_photograph',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'photographs',
  summary: 'Choose the photograph that represents a line (its cover).',
  description:
    'Marks one photograph as the cover, the picture shown for the line in lists and on the client document, without changing the display order (without a mark, the first photograph is the cover). The same choice again changes nothing, so no version is needed. Returns the photographs.',
  intents: ['use this photo as the main one', 'choose the cover picture', 'pick the lead image'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  input: z.strictObject(onePhotograph),
  output: LinePhotographs,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, lineId: PHOTO_EX.lineId, photographId: PHOTO_EX.photographId },
  handler: (ctx, input) => photographs.setCoverPhotograph(ctx, input),
});

export const rotateLinePhotograph = defineAction({
  name: 'rotate_line_photograph',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'photographs',
  summary: 'Turn a photograph upright: set its rotation to 0, 90, 180 or 270 degrees clockwise.',
  description:
    'Sets how far the photograph is turned clockwise from the upright original (its EXIF orientation is already applied): 90 turns a sideways picture a quarter to the right. The display and thumbnail sizes are remade; the original is never touched, so rotation 0 undoes it. The same rotation again changes nothing, so no version is needed. Returns the photographs.',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  input: z.strictObject({
    ...onePhotograph,
    rotation: z
      .union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)])
      .describe('Clockwise degrees from the upright original: 0, 90, 180 or 270.'),
  }),
  output: LinePhotographs,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, lineId: PHOTO_EX.lineId, photographId: PHOTO_EX.photographId, rotation: 90 },
  handler: (ctx, input) => photographs.rotatePhotograph(ctx, input),
});
