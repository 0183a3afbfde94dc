import { bindResource } from '../../src/core/define-action.js';
import { addLinePhotograph, removeLinePhotograph, reorderLinePhotographs } from '../photographs/edit.js';
import { getLinePhotograph, listLinePhotographs } from '../photographs/read.js';

/**
 * The `/v1` photograph operations, each its procedure twin bound to a path under the line (`items/{itemId}`). Reorder
 * and removal carry the line's version as If-Match: photographs are part of the line.
 */
const item = { itemId: 'lineId' } as const;
const P = '0000000000000000000000000a';
const I = '0000000000000000000000000b';
const F = '0000000000000000000000000f';

export const listPhotographs = bindResource(listLinePhotographs, {
  name: 'list_photographs',
  summary: "List a line's photographs (call this before get_photograph).",
  description:
    "The line's photographs in display order (sort, cursor and limit page them like any list), each with its size, rotation, cover flag and the URLs of its display, thumbnail and original bytes. The response's ETag (MCP: etag) is the line's, the same on every page, which reorder_photographs and remove_photograph send as If-Match. get_photograph shows one.",
  rename: item,
  // The line's ETag on every page: each change to its photographs bumps the line's version, which the tag carries.
  http: {
    method: 'GET',
    path: '/projects/{projectId}/items/{itemId}/photographs',
    etagIgnores: ['items', 'nextCursor'],
  },
  mcp: { advertised: true, title: 'List photographs' },
  example: { projectId: P, itemId: I },
});

export const addPhotograph = bindResource(addLinePhotograph, {
  name: 'add_photograph',
  summary: 'Add a photograph to a line: its data (base64), mediaType and filename.',
  description:
    "Adds a photograph last in the line's order. Over HTTP, POST the file itself as the body (up to 128 MiB) with its Content-Type and ?filename=; over MCP send data (base64, up to 24 MiB decoded), mediaType and filename. The type is read from the bytes (JPEG, PNG, WebP, HEIC, AVIF): a disagreeing or other type is 415 UNSUPPORTED_MEDIA_TYPE, a damaged file 422 IMAGE_UNREADABLE, over 100 megapixels 422 IMAGE_TOO_LARGE. The original is kept byte-exact; the display and thumbnail sizes are upright and carry no GPS or camera metadata. Needs an Idempotency-Key.",
  rename: item,
  http: {
    method: 'POST',
    path: '/projects/{projectId}/items/{itemId}/photographs',
    status: 201,
    created: '/projects/{projectId}/items/{itemId}/photographs/{id}',
    upload: { field: 'data', typeField: 'mediaType', nameField: 'filename' },
  },
  mcp: { advertised: true, title: 'Add a photograph' },
  example: {
    projectId: P,
    itemId: I,
    data: '/9j/4AAQSkZJRgABAQ…',
    mediaType: 'image/jpeg',
    filename: 'sofa-front.jpg',
    idempotencyKey: '2f8c1d7e-5a4b-4c3d-9e2f-1a0b9c8d7e6f',
  },
});

export const getPhotograph = bindResource(getLinePhotograph, {
  name: 'get_photograph',
  summary: 'Look at one photograph of a line (MCP: the picture as image content).',
  description:
    'The photograph record; over MCP also the picture itself as image content (upright, long edge at most 1,568 px, under 1 MB, no GPS or camera metadata). Over HTTP, ?variant=display, thumbnail or original answers the bytes instead, with a strong ETag; the URLs in the record carry a tag and may be cached for ever. list_photographs gives the ids.',
  rename: item,
  http: {
    method: 'GET',
    path: '/projects/{projectId}/items/{itemId}/photographs/{photographId}',
    // The record is tagged by its content (a photograph has no version of its own), so If-None-Match answers 304.
    etag: 'content',
  },
  mcp: { advertised: true, title: 'Get a photograph' },
  example: { projectId: P, itemId: I, photographId: F },
});

export const reorderPhotographs = bindResource(reorderLinePhotographs, {
  name: 'reorder_photographs',
  etagFrom: listPhotographs,
  description:
    "Sets the display order: order names every photograph of the line exactly once, first to last. Needs If-Match with the line's ETag (list_photographs answers it). Returns the photographs in their new order.",
  rename: item,
  http: { method: 'PUT', path: '/projects/{projectId}/items/{itemId}/photograph-order' },
  example: { projectId: P, itemId: I, ifMatch: '"5-3b1f0c2a"', order: [F, '0000000000000000000000000g'] },
});

export const removePhotograph = bindResource(removeLinePhotograph, {
  name: 'remove_photograph',
  etagFrom: listPhotographs,
  description:
    "Takes the photograph off the line: it is no longer listed, the others close up, and a client document minted earlier keeps showing it. Needs If-Match with the line's ETag (list_photographs answers it). Returns the line's photographs.",
  rename: item,
  http: { method: 'DELETE', path: '/projects/{projectId}/items/{itemId}/photographs/{photographId}' },
  example: { projectId: P, itemId: I, photographId: F, ifMatch: '"5-3b1f0c2a"' },
});
