import { bindResource } from '../../src/core/define-action.js';
import { createScheduleLine, duplicateScheduleLine, updateScheduleLine } from '../schedule/edit.js';
import { archiveScheduleLine } from '../schedule/lifecycle.js';
import { moveScheduleLine } from '../schedule/placement.js';
import { getScheduleLine, listScheduleLines } from '../schedule/read.js';

/**
 * The `/v1` line operations: each is its procedure twin bound to a path. A line is an `items` id in paths, so the
 * resource calls it `itemId`; its version travels as If-Match and its idempotency key as a header.
 */
const item = { itemId: 'lineId' } as const;

export const listLines = bindResource(listScheduleLines, {
  name: 'list_lines',
  description:
    'Returns the lines of one project, section by section in order, 500 per page by default so a whole schedule is one request. Filter by section, status, supplier, price state (priceState: tbc finds the prices still to confirm; several by repeating it: ?priceState=tbc&priceState=poa), archived state or a text query; sort by code, heading, createdAt or updatedAt (prefix "-" for descending). Beside the items, sections names the rooms of the page\'s lines with their titles.',
  http: {
    method: 'GET',
    path: '/projects/{projectId}/items',
    filters: ['sectionId', 'status', 'supplierId', 'priceState', 'archived', 'q'],
  },
  mcp: { advertised: true, title: 'List lines' },
  example: { projectId: '0000000000000000000000000a', status: 'specified' },
});

export const getLine = bindResource(getScheduleLine, {
  name: 'get_line',
  summary: 'Read one schedule line with its version and ETag.',
  description:
    'Returns the line with its version. Keep the ETag exactly as returned (quotes included) and send it as If-Match (MCP: ifMatch) when you change the line.',
  rename: item,
  http: { method: 'GET', path: '/projects/{projectId}/items/{itemId}' },
  mcp: { advertised: true, title: 'Get a line' },
  example: { projectId: '0000000000000000000000000a', itemId: '0000000000000000000000000b' },
});

export const createLine = bindResource(createScheduleLine, {
  name: 'create_line',
  summary: 'Add a line to a section of a project.',
  description:
    'Creates a schedule line at the end of a section. Only heading is required; quantity defaults to 1 of the studio default unit, prices to "tbc", status to draft and code to the next code of the code scheme its section takes (suggest_next_code previews it). Needs an Idempotency-Key.',
  http: {
    method: 'POST',
    path: '/projects/{projectId}/items',
    status: 201,
    created: '/projects/{projectId}/items/{id}',
  },
  example: {
    projectId: '0000000000000000000000000a',
    sectionId: '0000000000000000000000000c',
    heading: 'Linen sofa, three seater',
    idempotencyKey: '8d0f4f5e-2b1c-4c59-9d51-0b7f4c8f6f11',
  },
});

export const updateLine = bindResource(updateScheduleLine, {
  name: 'update_line',
  etagFrom: getLine,
  summary: 'Change fields of a line (JSON merge patch).',
  description:
    'Applies a JSON merge patch to the line: send only the fields to change; null clears a nullable field, and clientPrice: null returns to the derived price. Needs If-Match with the ETag of your last read; on VERSION_CONFLICT read the line again and report, never replay.',
  rename: item,
  bodyField: 'patch',
  http: { method: 'PATCH', path: '/projects/{projectId}/items/{itemId}' },
  mcp: { advertised: true, title: 'Update a line' },
  example: {
    projectId: '0000000000000000000000000a',
    itemId: '0000000000000000000000000b',
    ifMatch: '"3-1c9e0a7b"',
    finish: 'Natural oak',
  },
});

export const duplicateLine = bindResource(duplicateScheduleLine, {
  name: 'duplicate_line',
  description:
    'Creates a new line with the same fields (a new id, the next free code, version 1) directly after the source line. Needs an Idempotency-Key.',
  rename: item,
  http: {
    method: 'POST',
    path: '/projects/{projectId}/items/{itemId}/duplication',
    status: 201,
    created: '/projects/{projectId}/items/{id}',
  },
  example: {
    projectId: '0000000000000000000000000a',
    itemId: '0000000000000000000000000b',
    idempotencyKey: '5a2c7a1e-93d4-4b8e-8f0a-2d6e1c9b7f30',
  },
});

export const archiveLine = bindResource(archiveScheduleLine, {
  name: 'archive_line',
  etagFrom: getLine,
  description:
    'Sets archived_at and increases the version; the line leaves the schedule and shows as removed in the client document. A second archival is refused with ALREADY_ARCHIVED. Needs If-Match.',
  rename: item,
  http: { method: 'POST', path: '/projects/{projectId}/items/{itemId}/archival' },
  example: { projectId: '0000000000000000000000000a', itemId: '0000000000000000000000000b', ifMatch: '"4-5e2d90f4"' },
});

export const moveLine = bindResource(moveScheduleLine, {
  name: 'move_line',
  etagFrom: getLine,
  description:
    'Places the line at a 1-based position in the target section (default: last); other lines close up or make room. Needs If-Match.',
  rename: item,
  http: { method: 'POST', path: '/projects/{projectId}/items/{itemId}/placement' },
  example: {
    projectId: '0000000000000000000000000a',
    itemId: '0000000000000000000000000b',
    ifMatch: '"4-5e2d90f4"',
    sectionId: '0000000000000000000000000c',
    position: 1,
  },
});
