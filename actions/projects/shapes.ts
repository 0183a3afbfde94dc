import { z } from 'zod';
import { pageQuery } from '../shared/queries.js';
import { ClientId } from '../shared/refs.js';
import { PROJECT_STATUSES } from '../../db/vocabulary.js';
import { PROJECT_SORT_NAMES } from '../../src/domain/projects/projects.js';

/** Fake ids for examples of the projects and sections domains: the shape the API mints, no meaning. */
export const EXAMPLE = {
  projectId: '0000000000000000000000000a',
  sectionId: '0000000000000000000000000c',
  otherSectionId: '0000000000000000000000000e',
  memberId: '0000000000000000000000000m',
} as const;

/** The projects the caller can reach: status, client and text filters, and paging. */
export const ProjectListQuery = z.strictObject({
  status: z.enum(PROJECT_STATUSES).optional(),
  clientId: ClientId.optional(),
  q: z.string().min(1).max(200).optional().describe('Text to find in name, reference or client.'),
  sort: z.enum(PROJECT_SORT_NAMES).optional().describe('Default: newest first.'),
  ...pageQuery,
});
