import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { LIBRARY_PRODUCT } from '../../src/domain/libraries/entity.js';
import * as products from '../../src/domain/libraries/products.js';
import { LibraryProductId, LineId, ProjectId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { EX } from './examples.js';
import { LIBRARY_PRODUCT_RECORD } from '../../src/domain/libraries/record.js';
import { LibraryProduct } from './records.js';

const inProduct = { productId: LibraryProductId };

/** How an agent puts a product on a schedule: there is no separate action for it, by design. */
const TO_SCHEDULE =
  "To specify a product on a schedule, read it and call create_schedule_line with its heading, description, supplierId, brand, productCode, url, finish, dimensions and leadTimeDays, and its tradePrice and retailPrice as { state, amount4: price.amount4 } (amounts are in the product's currency; send them only when the project uses the same one).";

export const listLibraryProducts = defineAction({
  name: 'list_library_products',
  kind: 'procedure',
  effect: 'query',
  domain: 'libraries',
  summary: "List the products in a library, or search every library's products.",
  description: `The products of one library (libraryId), or without it those of every active library, by heading (or sort by createdAt or updatedAt; '-' for descending). q finds text in heading, description, brand, product code, finish or supplier name; supplierId keeps one supplier's. Removed products are left out unless archived is include or only. Trade prices appear only with pricing:read. ${TO_SCHEDULE}`,
  scope: 'reference:read',
  input: products.PRODUCT_LISTING.input,
  output: page(LibraryProduct),
  errors: [],
  example: { libraryId: EX.libraryId, q: 'pendant' },
  handler: (ctx, input) => products.listProducts(ctx, input),
});

export const addLibraryProduct = defineAction({
  name: 'add_library_product',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'libraries',
  summary: 'Save a product to a library, captured from a schedule line or described fresh.',
  description: `Saves a product in an active library. To capture a line the studio has specified, send fromLine { projectId, lineId }: its heading, description, supplier, brand, product code, url, finish, dimensions, lead time and its trade and retail prices are copied (in that project's currency), and any field you also send replaces the copied one. Otherwise send the fields themselves (heading required; prices default to "tbc"; currency defaults to the studio's). Setting tradePrice needs pricing:write. Send a fresh commandKey so a retry never adds it twice. ${TO_SCHEDULE}`,
  intents: ['save a product to our library', 'keep this piece for future projects', 'capture a line into a library'],
  scope: 'reference:write',
  keyed: true,
  input: LIBRARY_PRODUCT_RECORD.createInput.extend({
    fromLine: z
      .strictObject({ projectId: ProjectId, lineId: LineId.describe('The line (an `items` id in the resource API).') })
      .optional()
      .describe('A schedule line to capture, named in its project.'),
  }),
  output: LibraryProduct,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    libraryId: EX.libraryId,
    fromLine: { projectId: EX.projectId, lineId: EX.lineId },
    commandKey: '6a2d8f1e-9c3b-4e5a-8d7f-0b1c2e3d4f5a',
  },
  handler: (ctx, input) => products.addProduct(ctx, input),
});

export const updateLibraryProduct = defineAction({
  name: 'update_library_product',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'libraries',
  summary: "Change a library product's fields or prices (merge patch).",
  description:
    'Send only the fields to change (null clears supplierId, brand, productCode, url, finish, dimensions or leadTimeDays), with expectedVersion from your last read. Lines made from the product earlier do not change. Setting tradePrice needs pricing:write. A removed product, or one in an archived library, does not change (ARCHIVED).',
  scope: 'reference:write',
  versioned: { entity: LIBRARY_PRODUCT, idField: 'productId' },
  input: LIBRARY_PRODUCT_RECORD.patchInput.extend(inProduct),
  output: LibraryProduct,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    productId: EX.productId,
    expectedVersion: 2,
    finish: 'Aged brass',
    retailPrice: { state: 'set', amount4: '3450000' },
  },
  handler: (ctx, { productId, ...patch }) => products.updateProduct(ctx, productId, patch),
});

export const removeLibraryProduct = defineAction({
  name: 'remove_library_product',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'libraries',
  summary: 'Take a product out of its library (archived, never deleted).',
  description:
    'Removes the product from its library by archiving it: it leaves list_library_products (archived: include or only still shows it) and cannot change again. Schedule lines made from it are untouched. Needs expectedVersion; a second removal answers ALREADY_ARCHIVED.',
  scope: 'reference:write',
  versioned: { entity: LIBRARY_PRODUCT, idField: 'productId' },
  input: z.strictObject(inProduct),
  output: LibraryProduct,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { productId: EX.productId, expectedVersion: 3 },
  handler: (ctx, input) => products.removeProduct(ctx, input.productId),
});
