import { z } from 'zod';
import { Cursor, Limit, LineStatus } from './values.js';
import { PROJECT_STATUSES } from './records.js';
import { LINE_SORTS } from '../../src/domain/schedule/lines.js';
import { ProjectId, SectionId } from './refs.js';

/**
 * The queries lists take. A resource and its procedure twin (list_lines and list_schedule_lines, list_projects and
 * list_studio_projects) read through the same domain function, so they take one query shape, declared here once.
 */

/** Keyset paging, as every list takes it: the previous page's nextCursor, and a page size. */
export const pageQuery = { cursor: Cursor.optional(), limit: Limit.optional() };

/** Whether a list shows archived records; `records` names them in the description, e.g. "lines". */
export const archivedFilter = (records: string) =>
  z.enum(['exclude', 'include', 'only']).optional().describe(`Archived ${records}: excluded by default.`);

/** One project's schedule lines: filters, sort (none: document order) and paging. */
export const LineListQuery = z.strictObject({
  projectId: ProjectId,
  sectionId: SectionId.optional().describe('Only lines in this section.'),
  status: LineStatus.optional(),
  archived: archivedFilter('lines'),
  q: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Text to find in heading, description, code, brand or product code.'),
  sort: z.enum(LINE_SORTS).optional().describe('No default: document order.'),
  ...pageQuery,
});

/** The projects the caller can reach: status and text filters, and paging. */
export const ProjectListQuery = z.strictObject({
  status: z.enum(PROJECT_STATUSES).optional(),
  q: z.string().min(1).max(200).optional().describe('Text to find in name, reference or client.'),
  ...pageQuery,
});
