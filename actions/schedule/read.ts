import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Id, page } from '../../src/core/values.js';
import { pageQuery } from '../shared/queries.js';
import { AuditEvent } from '../audit/records.js';
import { Line } from './records.js';
import * as lines from '../../src/domain/schedule/lines.js';
import { listLineEvents } from '../../src/domain/audit/events.js';
import { EXAMPLE, inLine, LineListQuery } from './shapes.js';
import { EVENT_SORT_NAMES } from '../../src/domain/audit/events.js';

export const listScheduleLines = defineAction({
  name: 'list_schedule_lines',
  kind: 'procedure',
  effect: 'query',
  domain: 'schedule',
  summary: "List a project's schedule lines in document order.",
  description:
    'The lines of one project, section by section in order, 500 per page by default so a whole schedule is one call. Filter by section, status, supplier, price state of the trade or client price (of the client price alone for callers without pricing:read) (priceState: tbc finds the prices still to be confirmed; several as a list), archived state (excluded by default) or a text query on heading, description, code, brand, product code, finish and supplier name; sort by code, heading, createdAt or updatedAt ("-" prefix for descending). Pass nextCursor back as cursor for the next page. Beside the items, sections names the rooms of the page\'s lines with their titles.',
  intents: ['show everything on the schedule', 'which pieces are in this project', 'show archived pieces too'],
  scope: 'projects:read',
  input: LineListQuery,
  output: page(Line).extend({
    sections: z
      .array(z.strictObject({ id: Id, title: z.string() }))
      .describe(
        "The sections (rooms) of this page's lines, in the order they first appear, with their titles: a line's sectionId names one, so a question by room needs no get_project.",
      ),
  }),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, status: 'specified' },
  handler: (ctx, input) => lines.listLines(ctx, input),
});

export const getScheduleLine = defineAction({
  name: 'get_schedule_line',
  kind: 'procedure',
  effect: 'query',
  domain: 'schedule',
  summary: 'Read one schedule line with its version.',
  description:
    'Returns the line, archived or not. Keep its version: changes to the line send it back as expectedVersion.',
  intents: ['pull up the details of one piece', 'what do we have on the dining table', "look at the sofa's spec"],
  scope: 'projects:read',
  input: z.strictObject(inLine),
  output: Line,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, lineId: EXAMPLE.lineId },
  // The handler starts by loading the line: that read leaves with the ownership reads.
  readAhead: (input, caller) => lines.getLineRead(input.projectId, input.lineId, caller),
  handler: (ctx, input) => lines.getLine(ctx, input.projectId, input.lineId),
});

export const getScheduleLineHistory = defineAction({
  name: 'get_schedule_line_history',
  kind: 'procedure',
  effect: 'query',
  domain: 'schedule',
  summary: "A line's recorded changes, newest first.",
  description:
    'Every audit event about the line: its creation (or duplication, or copy), each edit with the fields changed, status changes, moves, archival and restoration; who made each and when. Trade price, markup and margin changes are left out for callers without pricing:read. Paged, newest first.',
  scope: 'projects:read',
  input: z.strictObject({
    ...inLine,
    sort: z.enum(EVENT_SORT_NAMES).optional().describe('at: oldest first; -at: newest first (the default).'),
    ...pageQuery(),
  }),
  output: page(AuditEvent),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, lineId: EXAMPLE.lineId, limit: 20 },
  handler: (ctx, input) => listLineEvents(ctx, input),
});
