import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Id, page } from '../shared/values.js';
import { LineListQuery } from '../shared/queries.js';
import { Line, LineFields } from '../shared/records.js';
import * as lines from '../../src/domain/schedule/lines.js';

const inLine = { projectId: Id, itemId: Id };

export const listLines = defineAction({
  name: 'list_lines',
  kind: 'resource',
  effect: 'query',
  domain: 'schedule',
  summary: "List a project's schedule lines in document order.",
  description:
    'Returns the lines of one project, section by section in order, 500 per page by default so a whole schedule is one request. Filter by section, status, archived state or a text query; sort by code, heading, createdAt or updatedAt (prefix "-" for descending).',
  scope: 'projects:read',
  input: LineListQuery,
  output: page(Line),
  errors: ['NOT_FOUND'],
  http: { method: 'GET', path: '/projects/{projectId}/items', filters: ['sectionId', 'status', 'archived', 'q'] },
  mcp: { advertised: true, title: 'List lines' },
  example: { projectId: '0000000000000000000000000a', status: 'specified' },
  handler: (ctx, input) => lines.listLines(ctx, input),
});

export const getLine = defineAction({
  name: 'get_line',
  kind: 'resource',
  effect: 'query',
  domain: 'schedule',
  summary: 'Read one schedule line with its version and ETag.',
  description:
    'Returns the line with its version. Keep the ETag exactly as returned (quotes included) and send it as If-Match (MCP: ifMatch) when you change the line.',
  scope: 'projects:read',
  input: z.strictObject(inLine),
  output: Line,
  errors: ['NOT_FOUND'],
  http: { method: 'GET', path: '/projects/{projectId}/items/{itemId}' },
  mcp: { advertised: true, title: 'Get a line' },
  example: { projectId: '0000000000000000000000000a', itemId: '0000000000000000000000000b' },
  handler: (ctx, input) => lines.getLine(ctx, input.projectId, input.itemId),
});

export const createLine = defineAction({
  name: 'create_line',
  kind: 'resource',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Add a line to a section of a project.',
  description:
    'Creates a schedule line at the end of a section. Only heading is required; quantity defaults to 1 of the studio default unit, prices to "tbc", status to draft and code to the next free studio code. Needs an Idempotency-Key.',
  scope: 'projects:write',
  keyed: true,
  input: LineFields.partial().extend({ projectId: Id, sectionId: Id, heading: LineFields.shape.heading }),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
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
  handler: (ctx, input) => lines.createLine(ctx, input),
});

export const updateLine = defineAction({
  name: 'update_line',
  kind: 'resource',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Change fields of a line (JSON merge patch).',
  description:
    'Applies a JSON merge patch to the line: send only the fields to change; null clears a nullable field, and clientPrice: null returns to the derived price. Needs If-Match with the ETag of your last read; on VERSION_CONFLICT read the line again and report, never replay.',
  scope: 'projects:write',
  versioned: { entity: 'line', idField: 'itemId' },
  input: LineFields.partial().extend(inLine),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  http: { method: 'PATCH', path: '/projects/{projectId}/items/{itemId}' },
  mcp: { advertised: true, title: 'Update a line' },
  example: {
    projectId: '0000000000000000000000000a',
    itemId: '0000000000000000000000000b',
    ifMatch: '"3"',
    finish: 'Natural oak',
  },
  handler: (ctx, { projectId, itemId, ...patch }) => lines.updateLine(ctx, projectId, itemId, patch),
});

export const duplicateLine = defineAction({
  name: 'duplicate_line',
  kind: 'resource',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Copy a line, placing the copy right after it.',
  description:
    'Creates a new line with the same fields (a new id, the next free code, version 1) directly after the source line. Needs an Idempotency-Key.',
  scope: 'projects:write',
  keyed: true,
  input: z.strictObject(inLine),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
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
  handler: (ctx, input) => lines.duplicateLine(ctx, input.projectId, input.itemId),
});

export const archiveLine = defineAction({
  name: 'archive_line',
  kind: 'resource',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Archive a line (lines are never deleted).',
  description:
    'Sets archived_at and increases the version; the line leaves the schedule and shows as removed in the client document. A second archival is refused with ALREADY_ARCHIVED. Needs If-Match.',
  scope: 'projects:write',
  versioned: { entity: 'line', idField: 'itemId' },
  input: z.strictObject(inLine),
  output: Line,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  http: { method: 'POST', path: '/projects/{projectId}/items/{itemId}/archival' },
  example: { projectId: '0000000000000000000000000a', itemId: '0000000000000000000000000b', ifMatch: '"4"' },
  handler: (ctx, input) => lines.archiveLine(ctx, input.projectId, input.itemId),
});

export const moveLine = defineAction({
  name: 'move_line',
  kind: 'resource',
  effect: 'mutation',
  domain: 'schedule',
  summary: 'Move a line within its section or to another section.',
  description:
    'Places the line at a 1-based position in the target section (default: last); other lines close up or make room. Needs If-Match.',
  scope: 'projects:write',
  versioned: { entity: 'line', idField: 'itemId' },
  input: z.strictObject({
    ...inLine,
    sectionId: Id.describe('The target section.'),
    position: z.int().min(1).optional(),
  }),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  http: { method: 'POST', path: '/projects/{projectId}/items/{itemId}/placement' },
  example: {
    projectId: '0000000000000000000000000a',
    itemId: '0000000000000000000000000b',
    ifMatch: '"4"',
    sectionId: '0000000000000000000000000c',
    position: 1,
  },
  handler: (ctx, input) => lines.moveLine(ctx, input.projectId, input.itemId, input.sectionId, input.position),
});
