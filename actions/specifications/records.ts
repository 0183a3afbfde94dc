import { z } from 'zod';
import { SPECIFICATION_RECORD } from '../../src/domain/specifications/record.js';
import { SPECIFICATION_CATEGORIES } from '../../db/vocabulary.js';
import { archivedFilter } from '../shared/queries.js';

/** A specification as the API answers it (declared once, in src/domain/specifications/record.ts). */
export const Specification = SPECIFICATION_RECORD.output;

/** Fake ids for examples: the shape the API mints, no meaning. */
export const EX = {
  specificationId: '000000000000000000000000sp',
  projectId: '0000000000000000000000000a',
  lineId: '0000000000000000000000000b',
} as const;

/** The filters list_specifications and search_specifications share. */
export const specificationFilters = {
  category: z.enum(SPECIFICATION_CATEGORIES).optional().describe('Only specifications of this kind.'),
  manufacturer: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('Only those by this maker: the whole name, in any case (e.g. "Flos").'),
  archived: archivedFilter('specifications'),
};
