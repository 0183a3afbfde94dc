import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import {
  MATCHED_FIELDS,
  SEARCH_PAGE_SIZE,
  SEARCH_SORTS,
  searchSpecifications as search,
} from '../../src/domain/specifications/search.js';
import { pageQuery } from '../shared/queries.js';
import { SPECIFICATION_FILTERS } from '../../src/domain/specifications/specifications.js';
import { Specification } from './records.js';

const SpecificationHit = z
  .strictObject({
    specification: Specification,
    score: z.int().min(1).max(100).describe('Relevance: 100 is the best hit of this search.'),
    matched: z.array(z.enum(MATCHED_FIELDS)).describe('The fields the words were found in.'),
  })
  .describe('A specification that answers the search, with how well and where.');

export const searchSpecifications = defineAction({
  name: 'search_specifications',
  kind: 'procedure',
  effect: 'query',
  domain: 'specifications',
  summary: "Find specifications in the studio's library by what the product is, best match first.",
  description:
    'Ranks the studio\'s specifications by how well they answer words a studio would type ("oak dining table 2 m", "brushed brass wall light", "grey wool rug"): over the name, category, materials, finishes, colours, manufacturer, model, SKU, sizes (in mm, cm or m), description, care and installation notes and notes, with prefixes ("walnu"), small typos and everyday words ("couch" finds sofas) matched. Narrow by category or manufacturer; archived ones are left out unless archived says include or only. 20 hits a page by default; sort by name instead of relevance if you like. Pass nextCursor back as cursor with the same q and filters. To list by name without ranking, use list_specifications.',
  intents: ['find the spec for a brass wall light', 'look up a product sheet', 'search our specifications'],
  scope: 'reference:read',
  input: z.strictObject({
    q: z.string().trim().min(1).max(200).describe('What the studio is looking for, in its own words.'),
    ...SPECIFICATION_FILTERS,
    sort: z.enum(SEARCH_SORTS).optional().describe('Default: relevance (best first); name or -name.'),
    ...pageQuery(SEARCH_PAGE_SIZE),
  }),
  output: page(SpecificationHit),
  errors: [],
  example: { q: 'brushed brass wall light', category: 'lighting', limit: 5 },
  handler: (ctx, input) => search(ctx, input),
});
