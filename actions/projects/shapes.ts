import { z } from 'zod';
import { priced } from '../../src/core/schema-marks.js';
import { pageQuery } from '../shared/queries.js';
import { ClientId } from '../shared/refs.js';
import { Currency, Markup } from '../../src/core/values.js';
import { PROJECT_STATUSES } from '../../db/vocabulary.js';
import { PROJECT_SORT_NAMES } from '../../src/domain/projects/projects.js';

/** A project's editable details, shared by create, update and duplicate. */
export const ProjectFields = z.strictObject({
  name: z.string().trim().min(1).max(200),
  reference: z.string().max(60).nullable(),
  clientId: ClientId.nullable().describe("One of the studio's clients (list_clients); null: none."),
  clientName: z
    .string()
    .max(200)
    .nullable()
    .describe("Older callers' way: a plain label when no client is linked. Prefer clientId."),
  currency: Currency,
  defaultMarkup: priced(Markup).nullable().describe('Needs pricing:write. Null: the studio default applies.'),
});

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
