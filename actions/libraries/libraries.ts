import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { LIBRARY } from '../../src/domain/libraries/entity.js';
import * as libraries from '../../src/domain/libraries/libraries.js';
import { LibraryId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { EX } from './examples.js';
import { LIBRARY_RECORD } from '../../src/domain/libraries/record.js';
import { Library } from './records.js';

const inLibrary = { libraryId: LibraryId };

export const listLibraries = defineAction({
  name: 'list_libraries',
  kind: 'procedure',
  effect: 'query',
  domain: 'libraries',
  summary: "List the studio's product libraries (its named collections of go-to products), by name.",
  description:
    "The studio's libraries (named collections of products it specifies again and again, e.g. \"Lighting we trust\") in name order (or sort by createdAt; '-' for descending), each with its count of products. Find one by a piece of its name or description with q; archived libraries are left out unless archived is include or only. Then list_library_products with its id for the products.",
  scope: 'reference:read',
  input: libraries.LIBRARY_LISTING.input,
  output: page(Library),
  errors: [],
  example: { q: 'lighting' },
  handler: (ctx, input) => libraries.listLibraries(ctx, input),
});

export const getLibrary = defineAction({
  name: 'get_library',
  kind: 'procedure',
  effect: 'query',
  domain: 'libraries',
  summary: 'Read one product library with its product count and version.',
  description:
    'The library (archived or not) with its name, description, how many products it holds, and its version for update_library and archive_library. Its products are read with list_library_products.',
  scope: 'reference:read',
  input: z.strictObject(inLibrary),
  output: Library,
  errors: ['NOT_FOUND'],
  example: { libraryId: EX.libraryId },
  handler: (ctx, input) => libraries.getLibrary(ctx, input.libraryId),
});

export const createLibrary = defineAction({
  name: 'create_library',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'libraries',
  summary: 'Start a new product library for the studio.',
  description:
    'Creates an empty library (a named collection of products) in your studio; only name is required. Check list_libraries with q first so one collection is not split in two. Fill it with add_library_product. Send a fresh commandKey so a retry never creates it twice.',
  scope: 'reference:write',
  keyed: true,
  input: LIBRARY_RECORD.createInput,
  output: Library,
  errors: [],
  example: {
    name: 'Lighting we trust',
    description: 'Pendants, wall lights and lamps we have specified without trouble.',
    commandKey: '3e1f0c9a-5b2d-4c7e-8a6f-2d9b1e0c4a73',
  },
  handler: (ctx, input) => libraries.createLibrary(ctx, input),
});

export const updateLibrary = defineAction({
  name: 'update_library',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'libraries',
  summary: 'Rename a product library or change its description.',
  description:
    "A merge patch of the library's own name and description, with expectedVersion from your last read. Its products change through update_library_product. Archived libraries do not change (ARCHIVED).",
  scope: 'reference:write',
  versioned: { entity: LIBRARY, idField: 'libraryId' },
  input: LIBRARY_RECORD.patchInput.extend(inLibrary),
  output: Library,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { libraryId: EX.libraryId, expectedVersion: 2, name: 'Lighting we swear by' },
  handler: (ctx, { libraryId, ...patch }) => libraries.updateLibrary(ctx, libraryId, patch),
});

export const archiveLibrary = defineAction({
  name: 'archive_library',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'libraries',
  summary: 'Archive a product library the studio no longer uses.',
  description:
    'Archives the library (never deleted). Its products stay readable with list_library_products and its libraryId, but none can be added or changed, and a search across libraries leaves them out. To take out a single product instead, use remove_library_product. Needs expectedVersion; a second archival answers ALREADY_ARCHIVED.',
  intents: ['retire a library we stopped using', 'put away an old product library', 'archive a library'],
  scope: 'reference:write',
  versioned: { entity: LIBRARY, idField: 'libraryId' },
  input: z.strictObject(inLibrary),
  output: Library,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { libraryId: EX.libraryId, expectedVersion: 3 },
  handler: (ctx, input) => libraries.archiveLibrary(ctx, input.libraryId),
});
