import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as mappings from '../../src/domain/imports/saved-mappings.js';
import { page } from '../../src/core/values.js';
import { ImportField, SavedMapping } from './records.js';

export const listImportMappings = defineAction({
  name: 'list_import_mappings',
  kind: 'procedure',
  effect: 'query',
  domain: 'imports',
  summary: "List the studio's saved column mappings for spreadsheet imports.",
  description:
    "The studio's saved mappings by name (or sort by updatedAt), each with its columns by heading. A preview uses, without being asked, the most recently saved mapping made for exactly the sheet's headings; preview_schedule_import's savedMappingId picks one by hand. q finds by a piece of the name.",
  scope: 'projects:read',
  input: mappings.MAPPING_LISTING.input,
  output: page(SavedMapping),
  errors: [],
  example: { q: 'lighting' },
  handler: (ctx, input) => mappings.listMappings(ctx, input),
});

export const saveImportMapping = defineAction({
  name: 'save_import_mapping',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'imports',
  summary: 'Save a column mapping, so imports of sheets with the same headings use it.',
  description:
    "Saves the field of each heading (as preview_schedule_import's mapping lists them: send its columns' heading and field) under a name. Any later sheet with exactly these headings, in any order and whatever their case or punctuation, is previewed with it. Saving under a name the studio already uses replaces that mapping. Every mapping maps one column to heading, and each field other than description at most once.",
  scope: 'projects:write',
  input: z.strictObject({
    name: z.string().trim().min(1).max(100).describe('e.g. "Supplier price list".'),
    columns: z
      .array(
        z.strictObject({
          heading: z.string().min(1).max(200).describe('As the sheet writes it.'),
          field: ImportField.nullable().describe('null: the column is left out.'),
        }),
      )
      .min(1)
      .max(200),
    headingRows: z.boolean().optional().describe('Default true: a row with only its first cell filled is a section.'),
  }),
  output: SavedMapping,
  errors: [],
  example: {
    name: 'Lighting schedule',
    columns: [
      { heading: 'Item', field: 'heading' },
      { heading: 'Qty', field: 'quantity' },
      { heading: 'Net (£)', field: 'tradePrice' },
      { heading: 'Total', field: null },
    ],
  },
  handler: (ctx, input) => mappings.saveMapping(ctx, input),
});
