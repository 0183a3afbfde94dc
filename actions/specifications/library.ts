import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import { SPECIFICATION } from '../../src/domain/specifications/entity.js';
import { SPECIFICATION_RECORD } from '../../src/domain/specifications/record.js';
import * as specifications from '../../src/domain/specifications/specifications.js';
import { SpecificationId } from '../shared/refs.js';
import { EX, Specification } from './records.js';

const inSpecification = { specificationId: SpecificationId };

export const listSpecifications = defineAction({
  name: 'list_specifications',
  kind: 'procedure',
  effect: 'query',
  domain: 'specifications',
  summary: "List the studio's library of product specifications, by name.",
  description:
    "The studio's specification sheets in name order (or sort by manufacturer, createdAt or updatedAt; '-' for descending), each with how many active lines it is attached to. Narrow by category or manufacturer, or find one by a piece of its name, maker, model or SKU with q; archived ones are left out unless archived is include or only. To find a product by what it is (\"oak dining table 2 m\"), search_specifications ranks by meaning instead.",
  intents: ['show our product specifications', 'list spec sheets by maker', 'which specifications do we keep'],
  scope: 'reference:read',
  input: specifications.SPECIFICATION_LISTING.input,
  output: page(Specification),
  errors: [],
  example: { category: 'lighting', sort: 'name' },
  handler: (ctx, input) => specifications.listSpecifications(ctx, input),
});

export const getSpecification = defineAction({
  name: 'get_specification',
  kind: 'procedure',
  effect: 'query',
  domain: 'specifications',
  summary: 'Read one specification sheet whole, with its version.',
  description:
    'The specification (archived or not): maker, model, dimensions, materials, finishes, colours, care and installation notes, lead time, links, which fields the client may see (clientFields), the studio notes, how many active lines have it, and its version for update_specification and archive_specification.',
  intents: ["show a product's spec sheet", 'open a specification', 'dimensions and finishes of a product'],
  scope: 'reference:read',
  input: z.strictObject(inSpecification),
  output: Specification,
  errors: ['NOT_FOUND'],
  example: { specificationId: EX.specificationId },
  handler: (ctx, input) => specifications.getSpecification(ctx, input.specificationId),
});

export const createSpecification = defineAction({
  name: 'create_specification',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'specifications',
  summary: "Add a product specification sheet to the studio's library.",
  description:
    'Creates a specification the studio can attach to lines in any project; name and category are required. Dimensions are scale-4 integer strings in one unit ({ unit: "mm", width4: "20000000" } is 2000 mm wide). clientFields says which fields the client sees on documents and the share page (default: description, dimensions, materials, finishes, colours, careNotes; the name always shows, notes never). Check search_specifications first: the same product twice splits its lines. Send a fresh commandKey so a retry never creates it twice.',
  intents: ['add a product spec sheet to our library', "record a new product's details", 'create a specification'],
  scope: 'reference:write',
  keyed: true,
  input: SPECIFICATION_RECORD.createInput,
  output: Specification,
  errors: [],
  example: {
    name: 'Solid oak dining table',
    category: 'tables',
    manufacturer: 'Benchmark',
    dimensions: { unit: 'mm', width4: '20000000', depth4: '9500000', height4: '7400000' },
    materials: ['solid oak'],
    finishes: ['hard wax oil'],
    links: [{ label: 'Product page', url: 'https://example.com/oak-table' }],
    commandKey: '3f6c2a1e-8b4d-4c7a-9e2f-5d1b0a9c8e7f',
  },
  handler: (ctx, input) => specifications.createSpecification(ctx, input),
});

export const updateSpecification = defineAction({
  name: 'update_specification',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'specifications',
  summary: "Change a specification's details or what the client may see of it.",
  description:
    'A merge patch: send only the fields to change (lists and dimensions are replaced whole; null clears manufacturer, model, sku, dimensions or leadTimeDays), with expectedVersion from your last read. Every line that has it shows the change at once, and so do client documents not yet minted. Archived specifications do not change (ARCHIVED).',
  intents: ["change a spec's finishes or sizes", 'edit a specification', 'update what the client sees of a spec'],
  scope: 'reference:write',
  versioned: { entity: SPECIFICATION, idField: 'specificationId' },
  input: SPECIFICATION_RECORD.patchInput.extend(inSpecification),
  output: Specification,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { specificationId: EX.specificationId, expectedVersion: 2, clientFields: ['dimensions', 'materials'] },
  handler: (ctx, { specificationId, ...patch }) => specifications.updateSpecification(ctx, specificationId, patch),
});

export const archiveSpecification = defineAction({
  name: 'archive_specification',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'specifications',
  summary: 'Archive a specification the studio no longer uses.',
  description:
    'Archives the specification (never deleted). Lines that have it keep it, and their documents still show it; the answer says how many (note). It can no longer be attached to a line or changed. Needs expectedVersion; a second archival answers ALREADY_ARCHIVED.',
  intents: ['retire a spec we no longer use', 'remove a specification', 'archive a product sheet'],
  scope: 'reference:write',
  versioned: { entity: SPECIFICATION, idField: 'specificationId' },
  input: z.strictObject(inSpecification),
  output: Specification.extend({
    note: z.string().nullable().describe('Says how many active lines keep the specification; null when none.'),
  }),
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { specificationId: EX.specificationId, expectedVersion: 3 },
  handler: (ctx, input) => specifications.archiveSpecification(ctx, input.specificationId),
});
